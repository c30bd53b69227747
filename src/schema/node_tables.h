#pragma once
// The tables describing the nodes of the cluster, produced from
// LocalNodeInfo: system.local (one row, key 'local'), system.peers and
// system.peers_v2 (one row per peer; none on a single node).

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::unique_ptr<VirtualTable> MakeLocalTable();
std::unique_ptr<VirtualTable> MakePeersTable();
std::unique_ptr<VirtualTable> MakePeersV2Table();

}  // namespace sibyl::schema
