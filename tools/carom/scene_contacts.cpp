#include "scene_contacts.h"

#include <BulletCollision/CollisionShapes/btPolyhedralConvexShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include "carom/bullet/gap.h"

namespace carom::cli {
namespace {

bool isPolyhedron(ShapeKind kind) {
  return kind == ShapeKind::box || kind == ShapeKind::convexHull;
}

// Appends `contact` unless one at the same point is already there (a corner on a corner is found
// from both bodies).
void addUnique(std::vector<SceneContact>& contacts, const SceneContact& contact, double tolerance) {
  for (const SceneContact& other : contacts) {
    if (other.bodyA == contact.bodyA && other.bodyB == contact.bodyB &&
        other.point.distance(contact.point) <= tolerance) {
      return;
    }
  }
  contacts.push_back(contact);
}

// The vertices of body v (a box or convex hull; a or b) that touch the other body of the pair, as
// contacts of the pair (a, b) with the normal from b towards a.
void addTouchingVertices(const Scene& scene,
                         const std::vector<std::unique_ptr<btCollisionShape>>& shapes, int a, int b,
                         int v, double tolerance, std::vector<SceneContact>& contacts) {
  const int o = v == a ? b : a;
  const auto& polyhedron = static_cast<const btPolyhedralConvexShape&>(*shapes[v]);
  const btTransform tv = bodyTransform(scene.bodies[v]), to = bodyTransform(scene.bodies[o]);
  const btSphereShape point(0);  // a vertex as a sphere of radius 0
  for (int i = 0; i < polyhedron.getNumVertices(); ++i) {
    btVector3 vertex;
    polyhedron.getVertex(i, vertex);
    const btTransform at(btQuaternion::getIdentity(), tv * vertex);
    const Gap g = gap(point, at, *shapes[o], to);  // normal from o towards the vertex
    if (g.distance > tolerance) continue;
    const btVector3 normal = v == a ? g.normal : -g.normal;
    addUnique(contacts, {a, b, (g.pointOnA + g.pointOnB) / 2, normal}, tolerance);
  }
}

}  // namespace

btTransform bodyTransform(const SceneBody& body) {
  return btTransform(body.orientation, body.position);
}

std::vector<std::unique_ptr<btCollisionShape>> makeShapes(const Scene& scene) {
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  for (const SceneBody& body : scene.bodies)
    shapes.push_back(makeShape(body.shape));
  return shapes;
}

std::vector<SceneContact> findContacts(const Scene& scene,
                                       const std::vector<std::unique_ptr<btCollisionShape>>& shapes,
                                       double tolerance) {
  std::vector<SceneContact> contacts;
  const int n = static_cast<int>(scene.bodies.size());
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      const SceneBody &bodyA = scene.bodies[a], &bodyB = scene.bodies[b];
      if (bodyA.isStatic() && bodyB.isStatic()) continue;
      const Gap g = gap(*shapes[a], bodyTransform(bodyA), *shapes[b], bodyTransform(bodyB));
      if (g.distance > tolerance) continue;
      const std::size_t before = contacts.size();
      if (isPolyhedron(bodyA.shape.kind)) {
        addTouchingVertices(scene, shapes, a, b, a, tolerance, contacts);
      }
      if (isPolyhedron(bodyB.shape.kind)) {
        addTouchingVertices(scene, shapes, a, b, b, tolerance, contacts);
      }
      if (contacts.size() == before) {
        contacts.push_back({a, b, (g.pointOnA + g.pointOnB) / 2, g.normal});
      }
    }
  }
  return contacts;
}

}  // namespace carom::cli
