#include "network/packet.h"

namespace fl::net {

const char* toString(Op op) {
  switch (op) {
    case Op::Write: return "write";
    case Op::Ack: return "ack";
    case Op::ReadRequest: return "read_request";
    case Op::ReadResponse: return "read_response";
    case Op::McStore: return "multimem.st";
    case Op::LdReduce: return "multimem.ld_reduce";
    case Op::LdReduceRead: return "ld_reduce_read";
    case Op::LdReduceData: return "ld_reduce_data";
    case Op::LdReduceResult: return "ld_reduce_result";
    case Op::Red: return "multimem.red";
    case Op::CaisLoad: return "ld.cais";
    case Op::CaisRead: return "cais_read";
    case Op::CaisData: return "cais_data";
    case Op::CaisResponse: return "cais_response";
    case Op::CaisRed: return "red.cais";
    case Op::CaisWrite: return "cais_write";
    case Op::CaisSync: return "cais_sync";
    case Op::CaisRelease: return "cais_release";
    case Op::CaisThrottle: return "cais_throttle";
  }
  return "?";
}

}  // namespace fl::net
