#include "mesh_triangles.h"

#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <LinearMath/btAabbUtil2.h>

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

btBoxShape sharpBox(const btBoxShape& box) {
  btBoxShape sharp = box;
  // Keeps the half extents with the margin: the corners stay where they are, rounded by
  // kSharpBoxMargin only.
  sharp.setMargin(kSharpBoxMargin);
  return sharp;
}

}  // namespace carom
