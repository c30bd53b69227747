#pragma once
// DESCRIBE for the query layer: the parsed statement goes to the schema's
// DESCRIBE generator (schema/describe.h), and its rows come back as a
// RESULT Rows paged as Cassandra pages them: by row offset, with a page asked
// for after a schema change refused ("The schema has changed since the
// previous page of the DESCRIBE statement result. ...").
//
//   schema::DescribeContext context{*snapshot, node, client.keyspace, &virtual_keyspaces};
//   RowsResult rows = ExecuteDescribe(ToDescribeRequest(statement), context, params);

#include "cql/ast_admin.h"
#include "protocol/request.h"
#include "query/statements/result.h"
#include "schema/describe.h"

namespace sibyl::query {

[[nodiscard]] schema::DescribeRequest ToDescribeRequest(const cql::DescribeStatement& statement);

// Throws CqlError(kInvalid) with Cassandra's messages (schema/describe.h), and
// CqlError(kProtocolError) for a paging state that is not Sibyl's.
[[nodiscard]] RowsResult ExecuteDescribe(const schema::DescribeRequest& request,
                                         const schema::DescribeContext& context,
                                         const protocol::QueryParameters& params);

}  // namespace sibyl::query
