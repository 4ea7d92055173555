#pragma once
// Speculative decoding (Leviathan, Kalman and Matias, "Fast Inference from Transformers via
// Speculative Decoding", ICML 2023; Chen et al. 2023): a small draft model proposes K tokens of each
// sequence one step at a time, and one step of the target model verifies all K + 1 (its rows take
// K + 1 tokens a sequence, each weight and each sequence's cache read once). A round yields the
// accepted drafted tokens and one of the target's own.

#include "llm/llm_arch.h"

#include <optional>
#include <string>

namespace rfx {

struct Speculation {
    const LlmModel* draft = nullptr; ///< the draft model (the caller keeps it); none: plain decoding
    double accept = 0; ///< A: the chance the target accepts each drafted token (i.i.d.), 0 to 1
    int lookahead = 4; ///< K: tokens drafted a round, 1 to 16
};

/// The tokens a round yields on average: (1 - A^(K + 1)) / (1 - A) (Leviathan et al. 2023, eq. 1),
/// K + 1 at A = 1.
double expectedTokensPerRound(double accept, int lookahead);

/// --accept and --lookahead out of range, in the user's words; nothing when they work.
std::optional<std::string> speculationError(const Speculation& s);

} // namespace rfx
