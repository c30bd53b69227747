#pragma once
// Replacing a small file so that a crash leaves the old contents or the new,
// never a mix: write a temporary file, fsync it, rename it over the target,
// fsync the directory. The schema snapshot (local_metadata_store.h) and a
// cluster node's copy of the metadata it applied (metadata/metadata_cache.h)
// are kept this way.
//
// Thread-safety: none needed; two writers of one path must not overlap.

#include <filesystem>

#include "common/bytes.h"

namespace sibyl::schema {

// REQUIRES: `temporary` is in the directory of `path`. Throws
// std::runtime_error naming the file and the system's reason.
void ReplaceFileDurably(const std::filesystem::path& path, const std::filesystem::path& temporary,
                        BytesView data);

}  // namespace sibyl::schema
