#include "sweep_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace carom::core::contact {
namespace {

// Contacts between the given body pairs (kWorld for the ground), as the solve builds them.
std::vector<SweepContact> contactsBetween(const std::vector<std::pair<int, int>>& pairs,
                                          int bodies) {
  impact::ContactBody body;
  body.inverseMass = 1.0;
  body.inverseInertiaWorld = Mat3::Identity();
  const impact::ContactBody world;
  std::vector<SweepContact> sweep;
  for (const auto& [a, b] : pairs) {
    EXPECT_LT(std::max(a, b), bodies);
    PersistentContact c;
    c.bodyA = a;
    c.bodyB = b;
    c.point = Vec3(0.1, 0.2, 0.5);
    sweep.emplace_back(c, a == kWorld ? world : body, b == kWorld ? world : body);
  }
  return sweep;
}

bool share(const SweepContact& x, const SweepContact& y) {
  for (const int i : {x.a, x.b})
    if (i != kWorld && (i == y.a || i == y.b)) return true;
  return false;
}

// A permutation in which every body's contacts come in their own order: the sweep is the same.
void expectSameSweep(const std::vector<SweepContact>& sweep,
                     const std::vector<std::size_t>& order) {
  ASSERT_EQ(order.size(), sweep.size());
  std::vector<std::size_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    ASSERT_EQ(sorted[i], i) << "not a permutation";
  for (std::size_t p = 0; p < order.size(); ++p)
    for (std::size_t q = p + 1; q < order.size(); ++q) {
      if (share(sweep[order[p]], sweep[order[q]])) {
        EXPECT_LT(order[p], order[q])
            << "contacts " << order[q] << " and " << order[p] << " share a body and were swapped";
      }
    }
}

TEST(SweepOrder, InterleavesTheCornersOfPairsThatShareNoBody) {
  // Two boxes on the ground, four corners each, then a box on each: the island's order.
  const std::vector<SweepContact> sweep = contactsBetween({{kWorld, 0},
                                                           {kWorld, 0},
                                                           {kWorld, 0},
                                                           {kWorld, 0},
                                                           {kWorld, 1},
                                                           {kWorld, 1},
                                                           {kWorld, 1},
                                                           {kWorld, 1},
                                                           {0, 2},
                                                           {0, 2},
                                                           {1, 3},
                                                           {1, 3}},
                                                          4);
  SweepOrderScratch scratch;
  std::vector<std::size_t> order;
  sweepOrder(sweep, 4, scratch, order);
  expectSameSweep(sweep, order);
  const std::vector<std::size_t> expected{0, 4, 1, 5, 2, 6, 3, 7, 8, 10, 9, 11};
  EXPECT_EQ(order, expected);
  for (std::size_t p = 1; p < order.size(); ++p)
    EXPECT_FALSE(share(sweep[order[p - 1]], sweep[order[p]])) << "at " << p;
}

TEST(SweepOrder, KeepsTheIslandOrderWhereEveryContactSharesABody) {
  const std::vector<SweepContact> sweep =
      contactsBetween({{kWorld, 0}, {0, 1}, {1, 2}, {0, 2}, {kWorld, 0}}, 3);
  SweepOrderScratch scratch;
  std::vector<std::size_t> order;
  sweepOrder(sweep, 3, scratch, order);
  // 2 shares no body with 0, but comes after 1 on body 1.
  const std::vector<std::size_t> expected{0, 1, 2, 3, 4};
  EXPECT_EQ(order, expected);
  expectSameSweep(sweep, order);
}

TEST(SweepOrder, KeepsEveryBodysOrderInARandomPile) {
  std::mt19937 engine(7);
  for (const int bodies : {1, 2, 5, 40}) {
    std::uniform_int_distribution<int> pick(-1, bodies - 1);
    std::vector<std::pair<int, int>> pairs;
    while (pairs.size() < 300) {
      const int a = pick(engine), b = pick(engine);
      if (b != kWorld && a != b) pairs.emplace_back(a, b);
    }
    const std::vector<SweepContact> sweep = contactsBetween(pairs, bodies);
    SweepOrderScratch scratch;
    std::vector<std::size_t> order;
    sweepOrder(sweep, static_cast<std::size_t>(bodies), scratch, order);
    expectSameSweep(sweep, order);
    // The scratch is reused as a solve's workspace reuses it: a second order is the same.
    std::vector<std::size_t> again;
    sweepOrder(sweep, static_cast<std::size_t>(bodies), scratch, again);
    EXPECT_EQ(again, order);
  }
}

// The scratch keeps the last order for contacts met again; contacts of other bodies, as many as
// before, get their own.
TEST(SweepOrder, ContactsOfOtherBodiesAreOrderedAfresh) {
  const std::vector<SweepContact> first =
      contactsBetween({{kWorld, 0}, {kWorld, 0}, {kWorld, 1}, {kWorld, 1}}, 3);
  const std::vector<SweepContact> second =
      contactsBetween({{kWorld, 0}, {kWorld, 0}, {0, 2}, {kWorld, 1}}, 3);
  SweepOrderScratch kept, fresh;
  std::vector<std::size_t> order, expected;
  sweepOrder(first, 3, kept, order);
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 2, 1, 3}));
  sweepOrder(second, 3, kept, order);
  sweepOrder(second, 3, fresh, expected);
  EXPECT_EQ(order, expected);
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 3, 1, 2}));
}

// apart(), which lets a sweep solve two neighbours side by side: only a shared body joins them,
// the world (which nothing moves) never does.
TEST(SweepOrder, ApartContactsShareNoBody) {
  const std::vector<SweepContact> ground = contactsBetween({{kWorld, 0}, {kWorld, 1}, {1, 0}}, 2);
  EXPECT_TRUE(apart(ground[0], ground[1])) << "both on the ground, on different bodies";
  EXPECT_FALSE(apart(ground[0], ground[2]));
  EXPECT_FALSE(apart(ground[2], ground[1]));
  std::mt19937 engine(3);
  std::uniform_int_distribution<int> pick(-1, 5);
  std::vector<std::pair<int, int>> pairs;
  while (pairs.size() < 200) {
    const int a = pick(engine), b = pick(engine);
    if (b != kWorld && a != b) pairs.emplace_back(a, b);
  }
  const std::vector<SweepContact> sweep = contactsBetween(pairs, 6);
  for (std::size_t p = 0; p < sweep.size(); ++p) {
    for (std::size_t q = 0; q < sweep.size(); ++q)
      EXPECT_EQ(apart(sweep[p], sweep[q]), !share(sweep[p], sweep[q])) << p << ", " << q;
  }
}

TEST(SweepOrder, OfNoContactsIsEmpty) {
  SweepOrderScratch scratch;
  std::vector<std::size_t> order{3};
  sweepOrder({}, 2, scratch, order);
  EXPECT_TRUE(order.empty());
}

}  // namespace
}  // namespace carom::core::contact
