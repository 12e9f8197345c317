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

btTriangleShape triangleShapeOf(const btConcaveShape& mesh, const MeshTriangle& triangle) {
  btTriangleShape shape(triangle.corner[0], triangle.corner[1], triangle.corner[2]);
  shape.setMargin(mesh.getMargin());
  return shape;
}

btBoxShape sharpBox(const btBoxShape& box) {
  btBoxShape sharp = box;
  // Keeps the half extents with the margin: the corners stay where they are, rounded by
  // kSharpBoxMargin only.
  sharp.setMargin(kSharpBoxMargin);
  return sharp;
}

}  // namespace carom
