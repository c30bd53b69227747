#include "tools/admin/node_connection.h"

#include <chrono>
#include <memory>

#include "client/blocking_call.h"
#include "client/io_thread.h"
#include "common/error.h"
#include "tools/admin/admin_error.h"

namespace sibyl::tools::admin {

std::string Where(const NodeAddress& node) { return node.host + ":" + std::to_string(node.port); }

void WithNodeConnection(const NodeAddress& node,
                        const std::function<void(client::Connection&)>& read) {
  client::IoThread io;
  client::ConnectionOptions options;
  options.host = node.host;
  options.port = node.port;
  options.request_timeout = std::chrono::seconds(10);
  auto connection = client::Connection::Create(io.context(), options);
  auto close = [&] {
    boost::asio::post(connection->executor(), [connection] { connection->Close(); });
    io.Release();
  };
  client::Reply ready = client::BlockingConnect(*connection);
  if (!ready.ok()) {
    close();
    // A transport failure names the address and the cause itself.
    if (const auto* failure = std::get_if<client::TransportFailure>(&ready.response)) {
      throw AdminError(failure->message);
    }
    throw AdminError(Where(node) + " refused the connection: " +
                     std::get<client::ErrorResponse>(ready.response).message);
  }
  try {
    read(*connection);
    close();
  } catch (const CqlError& e) {
    close();
    throw AdminError("cannot read the answer of " + Where(node) + ": " + e.what());
  } catch (...) {
    close();
    throw;
  }
}

std::vector<AdminRow> QueryRows(client::Connection& connection, const NodeAddress& node,
                                const std::string& cql) {
  client::Reply reply = client::BlockingQuery(connection, cql);
  auto* rows = std::get_if<client::RowsResult>(&reply.response);
  if (rows == nullptr) {
    throw AdminError("'" + cql + "' failed on " + Where(node) + ": " +
                     client::Describe(reply.response));
  }
  return std::move(rows->rows);
}

const Bytes& RequiredColumn(const AdminRow& row, size_t column, const char* name) {
  if (column >= row.size() || !row[column]) {
    throw AdminError(std::string("the node answered a null ") + name);
  }
  return *row[column];
}

}  // namespace sibyl::tools::admin
