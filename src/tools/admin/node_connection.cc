#include "tools/admin/node_connection.h"

#include <chrono>
#include <memory>

#include "client/blocking_call.h"
#include "client/io_thread.h"
#include "common/error.h"
#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {

std::string Where(const NodeAddress& node) { return node.host + ":" + std::to_string(node.port); }

void WithNodeConnection(const NodeAddress& node,
                        const std::function<void(client::Connection&)>& read,
                        std::chrono::milliseconds request_timeout) {
  client::IoThread io;
  client::ConnectionOptions options;
  options.host = node.host;
  options.port = node.port;
  options.request_timeout = request_timeout;
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
                                const std::string& cql, std::span<const Value> values) {
  protocol::QueryOptions options;
  options.values = values;
  client::Reply reply = client::BlockingQuery(connection, cql, options);
  auto* rows = std::get_if<client::RowsResult>(&reply.response);
  if (rows == nullptr) throw QueryFailed(cql, node, reply.response);
  return std::move(rows->rows);
}

void ExecuteOperation(client::Connection& connection, const NodeAddress& node,
                      const std::string& cql, std::span<const Value> values) {
  protocol::QueryOptions options;
  options.values = values;
  client::Reply reply = client::BlockingQuery(connection, cql, options);
  if (const auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
    throw AdminError(error->message);
  }
  if (!reply.ok()) throw QueryFailed(cql, node, reply.response);
}

AdminError QueryFailed(const std::string& cql, const NodeAddress& node,
                       const client::Response& response) {
  return AdminError("'" + cql + "' failed on " + Where(node) + ": " + client::Describe(response));
}

const Bytes& RequiredColumn(const AdminRow& row, size_t column, const char* name) {
  if (column >= row.size() || !row[column]) {
    throw AdminError(std::string("the node answered a null ") + name);
  }
  return *row[column];
}

namespace {

const Bytes& OfWidth(const Bytes& value, size_t width, const char* name) {
  if (value.size() != width) {
    throw AdminError(std::string("the node answered a malformed ") + name + " (" +
                     std::to_string(value.size()) + (value.size() == 1 ? " byte)" : " bytes)"));
  }
  return value;
}

}  // namespace

int64_t BigintColumn(const AdminRow& row, size_t column, const char* name) {
  return types::DecodeBigint(OfWidth(RequiredColumn(row, column, name), 8, name));
}

std::optional<int64_t> OptionalBigintColumn(const AdminRow& row, size_t column, const char* name) {
  if (column >= row.size() || !row[column]) return std::nullopt;
  return types::DecodeBigint(OfWidth(*row[column], 8, name));
}

bool BooleanColumn(const AdminRow& row, size_t column, const char* name) {
  return types::DecodeBoolean(OfWidth(RequiredColumn(row, column, name), 1, name));
}

std::optional<std::string> OptionalTextColumn(const AdminRow& row, size_t column) {
  if (column >= row.size() || !row[column]) return std::nullopt;
  return *row[column];
}

}  // namespace sibyl::tools::admin
