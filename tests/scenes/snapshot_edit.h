// Editing a snapshot blob in tests: cutting one section out, as an older version that did not know it would have
// written the blob (header: magic, version, u64 payload length; sections: tag, u64 length, body; trailer: FNV-1a 64).
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "io/byte_stream.h"

namespace pbd::scenes {

/// Removes section `tag` (4 characters), fixes the payload length and the checksum; false if there is none.
inline bool cutSnapshotSection(std::vector<uint8_t>& blob, const char* tag) {
  for (size_t at = 20; at + 12 <= blob.size() - 8;) {
    uint64_t length = 0;
    std::memcpy(&length, &blob[at + 4], 8);
    if (std::memcmp(&blob[at], tag, 4) == 0) {
      blob.erase(blob.begin() + long(at), blob.begin() + long(at + 12 + length));
      uint64_t payload = 0;
      std::memcpy(&payload, &blob[12], 8);
      payload -= 12 + length;
      std::memcpy(&blob[12], &payload, 8);
      const uint64_t h = io::fnv1a64(blob.data(), blob.size() - 8);
      std::memcpy(&blob[blob.size() - 8], &h, 8);
      return true;
    }
    at += 12 + size_t(length);
  }
  return false;
}

}  // namespace pbd::scenes
