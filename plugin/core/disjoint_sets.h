// Union–find over 0 … n−1 with path halving: the variational step's islands (bodies joined by
// candidate pairs), an impact's independent groups (contacts joined by shared bodies) and a joint
// system's independent blocks (rows joined by shared bodies). Internal to carom's two libraries.
#pragma once

#include <numeric>
#include <vector>

namespace carom {

class DisjointSets {
 public:
  explicit DisjointSets(std::size_t count) : m_parent(count) {
    std::iota(m_parent.begin(), m_parent.end(), 0);
  }
  // The representative of i's set.
  int root(int i) {
    while (m_parent[i] != i)
      i = m_parent[i] = m_parent[m_parent[i]];
    return i;
  }
  void join(int i, int j) { m_parent[root(i)] = root(j); }

 private:
  std::vector<int> m_parent;
};

}  // namespace carom
