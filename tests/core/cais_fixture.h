// DGX-H100 as seed 002 simulates it, for the CAIS and TP tests: 4 NVSwitch chips, 18
// links per GPU, 128 B packets framed with one header flit only (specs/cais.md §1.1 [R]:
// a 128 B write is 144 B, a read request 16 B).
#pragma once
#include "scenario/scenario.h"

inline fl::Scenario caisDgx(int gpus) {
  fl::Scenario s;
  s.topology.kind = fl::TopologyKind::NvSwitch;
  s.topology.gpus = gpus;
  s.topology.switches = 4;
  s.topology.links_per_gpu = 18;
  s.topology.switch_ports = 64;
  s.topology.link_efficiency = 0.98;
  s.network.packet_payload = 128;
  s.network.address_flits = 0;
  s.network.byte_enable_flits = 0;
  return s;
}
