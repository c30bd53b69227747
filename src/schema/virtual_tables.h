#pragma once
// The registry of virtual tables: (keyspace, table) → the producer of its
// rows. A table of the schema without a producer here is read from storage
// (which, until storage exists, holds nothing: it reads as empty).
//
// Thread-safety: filled before it is shared, then read-only; Find() may be
// called from any thread.

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "schema/virtual_table.h"

namespace sibyl::schema {

class VirtualTables {
 public:
  VirtualTables() = default;
  VirtualTables(VirtualTables&&) = default;
  VirtualTables& operator=(VirtualTables&&) = default;

  // system.local, system.peers, system.peers_v2, the system_schema tables,
  // and the tables of the virtual keyspaces (virtual_keyspaces.h).
  static VirtualTables SystemTables();

  // REQUIRES: no table registered under the same name; not yet shared between threads.
  void Add(std::unique_ptr<VirtualTable> table);

  // nullptr when (keyspace, table) has no producer.
  const VirtualTable* Find(std::string_view keyspace, std::string_view table) const;

 private:
  using Key = std::pair<std::string, std::string>;
  // Compares (keyspace, table) pairs of strings or string views, so Find() needs no copies.
  struct KeyLess {
    using is_transparent = void;
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      // As views: a tuple of string references and one of view references
      // do not compare under clang with libstdc++.
      const std::string_view a_keyspace = a.first, b_keyspace = b.first;
      if (a_keyspace != b_keyspace) return a_keyspace < b_keyspace;
      return std::string_view(a.second) < std::string_view(b.second);
    }
  };
  std::map<Key, std::unique_ptr<VirtualTable>, KeyLess> tables_;
};

}  // namespace sibyl::schema
