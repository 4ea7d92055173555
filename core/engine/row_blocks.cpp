#include "engine/row_blocks.h"

#include <algorithm>

namespace rfx {

std::vector<RowBlock> rowBlocks(const std::vector<LayerResult>& layers)
{
    std::vector<RowBlock> blocks;
    for (size_t i = 0; i < layers.size(); ++i) {
        const LayerResult& l = layers[i];
        if (l.block.empty())
            continue;
        if (!blocks.empty() && blocks.back().name == l.block && size_t(blocks.back().first + blocks.back().count) == i)
            ++blocks.back().count;
        else
            blocks.push_back({ l.block, int(i), 1, l.repeats });
    }
    return blocks;
}

BlockTotals blockTotals(const std::vector<LayerResult>& layers, const RowBlock& block)
{
    BlockTotals t;
    const size_t end = std::min(layers.size(), size_t(block.first + block.count));
    for (size_t i = size_t(std::max(0, block.first)); i < end; ++i) {
        const LayerResult& l = layers[i];
        t.params += l.params;
        t.flops += l.flops;
        t.bytes += l.bytes;
        t.l2Bytes += l.l2Bytes;
        t.l1Bytes += l.l1Bytes;
        t.extraBytes += l.extraBytes;
        t.workspace = std::max(t.workspace, l.workspace);
        t.time += l.time;
        if (l.bound == Bound::Memory)
            t.memoryTime += l.time;
        t.share += l.share;
        t.out = l.out;
    }
    t.intensity = t.bytes > 0 ? t.flops / t.bytes : 0;
    return t;
}

} // namespace rfx
