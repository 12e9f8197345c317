#include "mesh_triangles.h"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <LinearMath/btAabbUtil2.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "carom/error.h"

namespace carom {
namespace {

// btInternalEdgeUtility's split of a triangle's number: 10 bits of part, 21 of triangle.
constexpr int kPartBits = 10;
constexpr int kTriangleBits = 31 - kPartBits;

struct Collector : btTriangleCallback {
  void processTriangle(btVector3* corners, int part, int triangle) override {
    found.push_back({meshTriangleNumber(part, triangle), {corners[0], corners[1], corners[2]}});
  }
  std::vector<MeshTriangle> found;
};

}  // namespace

bool isTriangleMesh(const btCollisionShape& shape) {
  return shape.isConcave() && shape.getShapeType() != STATIC_PLANE_PROXYTYPE &&
         shape.getShapeType() != EMPTY_SHAPE_PROXYTYPE;
}

int meshTriangleNumber(int part, int triangle) {
  if (part < 0 || part >= (1 << kPartBits) || triangle < 0 || triangle >= (1 << kTriangleBits)) {
    throw Error("triangle mesh: part " + std::to_string(part) + ", triangle " +
                std::to_string(triangle) + " is beyond the " + std::to_string(1 << kPartBits) +
                " parts of " + std::to_string(1 << kTriangleBits) +
                " triangles that Bullet's triangle numbers (btInternalEdgeUtility) hold");
  }
  return (part << kTriangleBits) | triangle;
}

std::vector<MeshTriangle> trianglesIn(const btConcaveShape& mesh, const btTransform& frame,
                                      const btVector3& min, const btVector3& max) {
  // The world box in the mesh's frame: the box around the box turned into it.
  btVector3 localMin, localMax;
  btTransformAabb(min, max, 0, frame.inverse(), localMin, localMax);
  Collector collector;
  mesh.processAllTriangles(&collector, localMin, localMax);
  return std::move(collector.found);
}

btTriangleShape triangleShapeOf(const btConcaveShape& mesh, const MeshTriangle& triangle,
                                bool reversed) {
  btTriangleShape shape(triangle.corner[0], triangle.corner[reversed ? 2 : 1],
                        triangle.corner[reversed ? 1 : 2]);
  shape.setMargin(mesh.getMargin());
  return shape;
}

btVector3 faceNormalOf(const btTriangleShape& triangle, const btTransform& frame) {
  const btVector3 normal =
      frame.getBasis() * (triangle.m_vertices1[1] - triangle.m_vertices1[0])
                             .cross(triangle.m_vertices1[2] - triangle.m_vertices1[0]);
  const btScalar length = normal.length();
  return length > 0 ? normal / length : btVector3(0, 0, 0);
}

btVector3 interiorPointOf(const btConvexShape& shape, const btTransform& frame) {
  btVector3 sum(0, 0, 0);
  for (int axis = 0; axis < 3; ++axis) {
    btVector3 direction(0, 0, 0);
    direction[axis] = 1;
    sum += shape.localGetSupportingVertex(direction) + shape.localGetSupportingVertex(-direction);
  }
  return frame * (sum / 6);
}

std::optional<Gap> gapBehindTriangle(const btConvexShape& shape, const btTransform& frame,
                                     const btTriangleShape& triangle,
                                     const btTransform& triangleFrame) {
  const btVector3 normal = faceNormalOf(triangle, triangleFrame);
  if (normal.isZero()) return std::nullopt;
  btVector3 corner[3];
  for (int i = 0; i < 3; ++i)
    corner[i] = triangleFrame * triangle.m_vertices1[i];
  const btVector3 centre = interiorPointOf(shape, frame);
  if (normal.dot(centre - corner[0]) >= 0) return std::nullopt;  // in front of the face
  for (int i = 0; i < 3; ++i) {  // within the outline: on the inner side of every edge
    const btVector3 edge = corner[(i + 1) % 3] - corner[i];
    if (normal.cross(edge).dot(centre - corner[i]) < 0) return std::nullopt;
  }
  Gap g;
  g.normal = normal;
  g.pointOnA = frame * shape.localGetSupportingVertex(frame.getBasis().transpose() * -normal);
  g.distance = normal.dot(g.pointOnA - corner[0]) - triangle.getMargin();
  g.pointOnB = g.pointOnA - normal * g.distance;
  return g;
}

TriangleNeighbours TriangleNeighbours::reversed() const {
  TriangleNeighbours turned = *this;
  for (Edge& e : turned.edge)
    e.normal = -e.normal;
  return turned;
}

TriangleNeighbours neighboursOf(const btConcaveShape& mesh, const MeshTriangle& triangle) {
  TriangleNeighbours neighbours;
  btVector3 min = triangle.corner[0], max = triangle.corner[0];
  for (const btVector3& corner : triangle.corner) {
    min.setMin(corner);
    max.setMax(corner);
  }
  const btVector3 slack(kSharedCorner, kSharedCorner, kSharedCorner);
  const std::vector<MeshTriangle> near =
      trianglesIn(mesh, btTransform::getIdentity(), min - slack, max + slack);
  const auto same = [](const btVector3& a, const btVector3& b) {
    return (a - b).length2() <= kSharedCorner * kSharedCorner;
  };
  const auto normalOf = [](const btVector3* corner) {
    const btVector3 normal = (corner[1] - corner[0]).cross(corner[2] - corner[0]);
    return normal.length2() > 0 ? normal.normalized() : btVector3(0, 0, 0);
  };
  for (int i = 0; i < 3; ++i) {
    TriangleNeighbours::Edge& edge = neighbours.edge[i];
    edge.from = triangle.corner[i];
    edge.to = triangle.corner[(i + 1) % 3];
    edge.normal.setZero();
    for (const MeshTriangle& other : near) {
      if (other.number == triangle.number) continue;
      for (int k = 0; k < 3 && edge.normal.isZero(); ++k) {
        const btVector3& a = other.corner[k];
        const btVector3& b = other.corner[(k + 1) % 3];
        // Wound consistently, two triangles run along their common edge in opposite directions.
        if (same(a, edge.to) && same(b, edge.from)) edge.normal = normalOf(other.corner);
        if (same(a, edge.from) && same(b, edge.to)) edge.normal = -normalOf(other.corner);
      }
    }
  }
  return neighbours;
}

Gap withinSurfaceNormals(const Gap& g, int triangleSide, const btTriangleShape& triangle,
                         const btTransform& frame, const TriangleNeighbours& neighbours,
                         const btCollisionShape& other, const btTransform& otherFrame) {
  const btVector3 face = faceNormalOf(triangle, frame);
  const btVector3 out = triangleSide == 1 ? g.normal : -g.normal;  // from the triangle outwards
  if (face.isZero() || out.dot(face) >= 1 - 1e-15) return g;
  const btVector3& witness = triangleSide == 1 ? g.pointOnB : g.pointOnA;
  const btVector3 onCore = witness - out * triangle.getMargin();
  const btVector3 centroid =
      frame * ((triangle.m_vertices1[0] + triangle.m_vertices1[1] + triangle.m_vertices1[2]) / 3);
  // An edge the witness lies on: within a round-off of GJK's witness (1e-9 m per metre of edge).
  btVector3 normal = out;
  for (const TriangleNeighbours::Edge& edge : neighbours.edge) {
    if (edge.normal.isZero()) continue;
    const btVector3 from = frame * edge.from, along = frame.getBasis() * (edge.to - edge.from);
    const double length = along.length();
    const double s = std::clamp(along.dot(onCore - from) / (length * length), 0.0, 1.0);
    if ((from + s * along - onCore).length() > 1e-9 * std::max(1.0, length)) continue;
    btVector3 outward = along.cross(face).normalized();  // in the face, away from the triangle
    if (outward.dot(from - centroid) < 0) outward = -outward;
    const btVector3 next = frame.getBasis() * edge.normal;
    // The surface's normals at the edge turn outwards from the face's as far as the next face's,
    // if it bends down (a ridge); none beyond the face's where it is flat or bends up.
    const double reach = next.dot(outward) > 0 ? std::atan2(next.dot(outward), next.dot(face)) : 0;
    if (std::atan2(normal.dot(outward), normal.dot(face)) > reach)
      normal = std::cos(reach) * face + std::sin(reach) * outward;
  }
  if (normal == out || !other.isConvex()) return g;
  // The other shape's point that the new normal leads to: where it touches the surface there. A
  // point of a rolling ball 2.4 cm ahead of its lowest, GJK's witness, moves down at 0.12 m/s.
  const auto& convex = static_cast<const btConvexShape&>(other);
  const btVector3 lowest =
      otherFrame * convex.localGetSupportingVertex(otherFrame.getBasis().transpose() * -normal);
  Gap turned = g;
  turned.normal = triangleSide == 1 ? normal : -normal;
  (triangleSide == 1 ? turned.pointOnA : turned.pointOnB) = lowest;
  (triangleSide == 1 ? turned.pointOnB : turned.pointOnA) = lowest - normal * g.distance;
  return turned;
}

btBoxShape sharpBox(const btBoxShape& box) {
  btBoxShape sharp = box;
  // Keeps the half extents with the margin: the corners stay where they are, rounded by
  // kSharpBoxMargin only.
  sharp.setMargin(kSharpBoxMargin);
  return sharp;
}

}  // namespace carom
