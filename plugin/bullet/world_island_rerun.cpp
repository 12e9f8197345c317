// Islands joined within the step. Each island runs on its own time (stage 4), so a body struck in
// one that reaches a body of another before the end of the step would meet it only at the next
// step's start, as deep as it had travelled into it since. findNewPartners links such islands;
// their runs are taken back and they run again from the start of the step as one island, until no
// run reaches another island's body. Each rerun joins two islands or more into one, so there are
// fewer reruns than islands. A run stops as soon as it is linked, and an island linked before its
// turn does not run: what either would do is taken back.
#include <algorithm>
#include <map>

#include "disjoint_sets.h"
#include "variational_step.h"

namespace carom {

void VariationalStep::rerunLinkedIslands(std::vector<Island>& islands) {
  while (!m_links.empty()) {
    DisjointSets joined(islands.size());
    std::vector<int> linked;
    for (const auto& [a, b] : m_links) {
      joined.join(a, b);
      linked.push_back(a);
      linked.push_back(b);
    }
    m_links.clear();
    std::sort(linked.begin(), linked.end());
    linked.erase(std::unique(linked.begin(), linked.end()), linked.end());
    // Every linked island is taken back before any runs again: one of them may be linked to an
    // island of another group by the new runs, which then finds it at the start of the step.
    std::map<int, Island> merged;  // by the root of their links
    for (const int id : linked) {
      const Island start = discardRun(islands, id);
      Island& into = merged[joined.root(id)];
      into.bodies.insert(into.bodies.end(), start.bodies.begin(), start.bodies.end());
      into.pairs.insert(into.pairs.end(), start.pairs.begin(), start.pairs.end());
    }
    std::vector<int> ids;  // the merged islands'
    for (auto& [root, island] : merged) {
      const int id = static_cast<int>(islands.size());
      for (std::size_t slot = 0; slot < island.bodies.size(); ++slot) {
        m_islandOf[island.bodies[slot]] = id;
        m_slot[island.bodies[slot]] = static_cast<int>(slot);
      }
      m_startOfStep.islands.push_back(island);
      islands.push_back(std::move(island));
      ++m_diagnostics.islandsJoined;
      ids.push_back(id);
    }
    runSmallestFirst(islands, std::move(ids));
  }
}

Island VariationalStep::discardRun(std::vector<Island>& islands, int id) {
  const Island start = m_startOfStep.islands[id];
  std::vector<bool> member(m_bodies.size(), false);
  for (const int body : start.bodies)
    member[body] = true;
  dropIslandPins(islands[id]);  // the run is taken back with its pins
  for (const int body : islands[id].bodies) {
    // Its own bodies start the step again; a free flier it took in flies free again.
    setStateNow(body, member[body] ? m_start[body] : m_startOfStep.trial[body]);
    anchorAt(body, m_start[body], 0);  // what its trial, taken back, was flowed from
    m_trial[body] = m_startOfStep.trial[body];
    for (const int p : m_pairsOf[body]) {  // its trial poses moved back, and its path
      rescan(p);
      m_tracks[p].trialGapBound.reset();
      m_tracks[p].clearance = 0;
    }
    if (jointed(body)) {
      const int g = m_joints.groupOf[body];
      m_jointsNow[g] = member[body] ? m_jointsKicked[g] : m_startOfStep.jointsTrial[g];
      m_jointsTrial[g] = m_startOfStep.jointsTrial[g];
    }
    m_stale[body] = false;
    m_searched[body] = m_startOfStep.searched[body];
    m_reached[body] = m_startOfStep.searched[body];
    std::vector<int>& pairs = m_pairsOf[body];  // less the pairs its run found, appended
    const int found = static_cast<int>(m_startOfStep.pairs.size());
    pairs.erase(std::remove_if(pairs.begin(), pairs.end(), [&](int p) { return p >= found; }),
                pairs.end());
    for (const int p : pairs) {  // its distant pairs as stage 3 left them, woken or not
      if (!m_startOfStep.pairs[p].distant) continue;
      m_pairs[p] = m_startOfStep.pairs[p];
      m_tracks[p] = PairTrack{};
      m_tracks[p].startGapPending = true;
      rescan(p);
    }
    m_eventsOf[body] = 0;
    m_deviation[body] = 0;
    m_islandOf[body] = -1;
    m_slot[body] = -1;
  }
  // Its bodies' paths are taken back with it (each body of a run is in its island until here).
  m_grown.erase(std::remove_if(m_grown.begin(), m_grown.end(),
                               [this](int body) { return m_islandOf[body] < 0; }),
                m_grown.end());
  for (const int p : start.pairs) {
    m_pairs[p] = m_startOfStep.pairs[p];
    m_tracks[p] = PairTrack{};
    m_tracks[p].startGapPending = true;
    rescan(p);
  }
  m_held.erase(std::remove_if(m_held.begin(), m_held.end(),
                              [id](const HeldContact& held) { return held.island == id; }),
               m_held.end());
  m_events.erase(std::remove_if(m_events.begin(), m_events.end(),
                                [id](const auto& event) { return event.first == id; }),
                 m_events.end());
  const IslandCounts counts = m_countsOf[id];
  m_diagnostics.impacts -= counts.impacts;
  m_diagnostics.landings -= counts.landings;
  m_diagnostics.persistentContacts -= counts.persistentContacts;
  m_diagnostics.restingIslands -= counts.restingIslands;
  m_diagnostics.stillIslands -= counts.stillIslands;
  m_diagnostics.impactsBySweeps -= counts.impactsBySweeps;
  m_diagnostics.impactsInTurn -= counts.impactsInTurn;
  m_countsOf[id] = {};
  stillnessOf(id) = {};
  islands[id] = {};
  return start;
}

}  // namespace carom
