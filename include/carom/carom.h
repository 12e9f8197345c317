// carom: physically exact impacts for Bullet Physics. The one header users include.
#pragma once

#include "carom/error.h"
#include "carom/version.h"

#include "carom/bullet/config.h"
#include "carom/bullet/dynamics_world.h"
#include "carom/bullet/ellipsoid_shape.h"
#include "carom/bullet/gap.h"
#include "carom/bullet/impact_event.h"
#include "carom/bullet/impact_solver.h"

#include "carom/core/body.h"
#include "carom/core/collision_integrator.h"
#include "carom/core/event.h"
#include "carom/core/jump.h"
#include "carom/core/lgvi.h"
#include "carom/core/lie.h"
#include "carom/core/sdf.h"
#include "carom/core/tran_leok_cases.h"

#include "carom/core/contact/persistent_contact.h"
#include "carom/core/impact/law.h"
#include "carom/core/impact/material.h"
#include "carom/core/lcp/box_mlcp.h"
#include "carom/core/lcp/lemke.h"
#include "carom/core/lcp/pgs.h"
#include "carom/core/routh/policy.h"
#include "carom/core/routh/sample_set.h"
