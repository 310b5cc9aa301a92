// EnginePrint.h — the --emit=config text of an engine configuration (the same text `tcpc --disassemble` prints).
#pragma once

#include "EngineConfig.h"

#include <llvm/Support/raw_ostream.h>

#include <string>
#include <utility>
#include <vector>

namespace tcp {

// One printed block: `    name: [sequencer]`, its verbose comment, then `      key = value` lines.
struct EngineBlock {
  std::string name;
  const SeqConfig *sequencer = nullptr;
  std::vector<std::pair<std::string, std::string>> fields;
};

// The blocks of one engine (a DMA transfer prints three: dma_read, dma_write, dma_sequencer).
std::vector<EngineBlock> engineBlocks(const EngineConfig &e);
std::vector<EngineBlock> dmaBlocks(const DmaConfig &c);  // DmaConfigPrint.cpp

void printEngine(const EngineConfig &e, llvm::raw_ostream &os);

}  // namespace tcp
