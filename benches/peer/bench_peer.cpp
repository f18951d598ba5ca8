// Times the C++ peer `kezsulap/dice-chess-engine` on the five positions of
// benches/common/mod.rs: `board::generate_moves()` (its moves for all 84 dice multisets, full
// and partial), median of 15 rounds of about 40 ms each, the same method as the quick medians
// of benches/chance.rs. Built and run by run.sh against a pinned clone of the peer; none of
// the peer's code is part of this repository.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "board.hpp"

int main() {
  const std::vector<std::pair<std::string, std::string>> positions = {
      {"start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"},
      {"endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"},
      {"castling", "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"},
      {"promotion", "k7/4P3/8/8/8/8/8/4K3 w - - 0 1"},
  };
  std::string env;
  for (const auto &[name, fen] : positions) {
    const board b = parse_fen(fen);
    // What one call produces: distinct positions over the 56 full rolls (a check that the
    // peer answers the same question as expand_all_rolls: compare with the bench's column).
    std::set<board> distinct;
    const movelist once = b.generate_moves();
    for (const auto &dice : full_dice_rolls) {
      const auto &moves = once.get_moves(dice);
      distinct.insert(moves.begin(), moves.end());
    }
    std::vector<double> per_call;
    size_t sink = 0;
    for (int round = 0; round < 15; round++) {
      const auto start = std::chrono::steady_clock::now();
      long calls = 0;
      while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(40)) {
        const movelist m = b.generate_moves();
        sink += m.get_moves(full_dice_rolls[calls % full_dice_rolls.size()]).size();
        calls++;
      }
      const std::chrono::duration<double, std::micro> spent = std::chrono::steady_clock::now() - start;
      per_call.push_back(spent.count() / calls);
    }
    std::sort(per_call.begin(), per_call.end());
    const double median = per_call[per_call.size() / 2];
    std::printf("%-10s %10.1f us  %6zu distinct  (sink %zu)\n", name.c_str(), median, distinct.size(), sink);
    char value[32];
    std::snprintf(value, sizeof value, "%s%.1f", env.empty() ? "" : ",", median);
    env += value;
  }
  std::printf("DICECHESS_PEER_US=%s\n", env.c_str());
}
