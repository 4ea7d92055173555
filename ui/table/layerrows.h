#pragma once

#include "engine/row_blocks.h"

#include <set>
#include <string>
#include <vector>

namespace rfx {

/// The layer table's lines over a device's rows: a row of no block is a line of its own; the rows of
/// identical blocks (a language model's "blk0-31", RowBlock) sit under one line of the block's own,
/// "blk0-31 x 32", which folds them away or shows them. The block's lines follow the row order, so
/// the table's natural order is the network's.
class LayerRows {
public:
    struct Line {
        int layer = -1; ///< the row it shows, an index into the device's layers; -1: a block's own line
        int block = -1; ///< the block it is or belongs to, an index into blocks(); -1: none
    };

    /// The lines for `layers`; the blocks folded before stay folded (by name: a slider step, a phase).
    void build(const std::vector<LayerResult>& layers);
    /// The blocks' sums again (the same rows with new figures: a slider step).
    void updateTotals(const std::vector<LayerResult>& layers);

    int count() const { return int(m_lines.size()); }
    const Line& line(int row) const { return m_lines[size_t(row)]; }
    int rowOfLayer(int layer) const;
    int rowOfBlock(int block) const;
    const std::vector<RowBlock>& blocks() const { return m_blocks; }
    const RowBlock& block(int b) const { return m_blocks[size_t(b)]; }
    const BlockTotals& totals(int b) const { return m_totals[size_t(b)]; }

    bool folded(int block) const;
    void setFolded(int block, bool folded);
    /// A row is hidden when its block is folded.
    bool hiddenByFold(int row) const;

private:
    std::vector<Line> m_lines;
    std::vector<int> m_rowOfLayer;
    std::vector<RowBlock> m_blocks;
    std::vector<BlockTotals> m_totals;
    std::set<std::string> m_folded; ///< the folded blocks' names
};

} // namespace rfx
