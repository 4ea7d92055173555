#pragma once

#include "engine/roofline.h"

#include <cstdint>
#include <string>
#include <vector>

namespace rfx {

/// Consecutive rows that stand for the same identical blocks (LayerResult::block: a language model's
/// "blk0-31", each row run once per block), as the layer table groups them under one line.
struct RowBlock {
    std::string name; ///< "blk0-31"
    int first = 0; ///< its first row, an index into the device's layers
    int count = 0; ///< its rows
    double repeats = 1; ///< the blocks it stands for (32): every row's figures are theirs together
};
std::vector<RowBlock> rowBlocks(const std::vector<LayerResult>& layers);

/// A block's rows summed: what the blocks cost together. The intensity is the sum's (FLOPs / bytes),
/// not a mean of the rows'; `memoryTime` is the time of its memory-bound rows, which says which side
/// the block mostly sits on.
struct BlockTotals {
    std::int64_t params = 0;
    double flops = 0;
    double bytes = 0; ///< DRAM traffic, byte
    double l2Bytes = 0;
    double l1Bytes = 0;
    double extraBytes = 0;
    double workspace = 0; ///< the largest row's (they run one after the other), byte
    double time = 0; ///< second
    double memoryTime = 0; ///< of `time`, the memory-bound rows', second
    double share = 0; ///< of the phase's time, 0..1
    double intensity = 0; ///< flops / bytes, FLOP/B
    Shape out; ///< the block's last row's output
};
BlockTotals blockTotals(const std::vector<LayerResult>& layers, const RowBlock& block);

} // namespace rfx
