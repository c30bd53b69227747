// GRANT, REVOKE and LIST (Parser.g's grantPermissionsStatement,
// revokePermissionsStatement, grantRoleStatement, revokeRoleStatement,
// listPermissionsStatement, listRolesStatement, listUsersStatement,
// permissionOrAll, resource and its *Resource rules), with the grammar's
// filterPermissions and the checks its resource actions make.

#include "cql/admin_parsers.h"
#include "cql/ddl_parsers.h"
#include "cql/name_parser.h"
#include "cql/type_parser.h"

namespace sibyl::cql::parser_internal {
namespace {

using P = Permission;
using RK = Resource::Kind;

bool IsPermissionToken(TokenType type) {
  switch (type) {
    case TokenType::kKwCreate:
    case TokenType::kKwAlter:
    case TokenType::kKwDrop:
    case TokenType::kKwSelect:
    case TokenType::kKwModify:
    case TokenType::kKwAuthorize:
    case TokenType::kKwDescribe:
    case TokenType::kKwExecute:
      return true;
    default:
      return false;
  }
}

Permission PermissionOf(TokenType type) {
  switch (type) {
    case TokenType::kKwCreate:
      return P::kCreate;
    case TokenType::kKwAlter:
      return P::kAlter;
    case TokenType::kKwDrop:
      return P::kDrop;
    case TokenType::kKwSelect:
      return P::kSelect;
    case TokenType::kKwModify:
      return P::kModify;
    case TokenType::kKwAuthorize:
      return P::kAuthorize;
    case TokenType::kKwDescribe:
      return P::kDescribe;
    default:
      return P::kExecute;
  }
}

constexpr Permission kAllPermissions[] = {P::kCreate, P::kAlter,     P::kDrop,     P::kSelect,
                                          P::kModify, P::kAuthorize, P::kDescribe, P::kExecute};

struct PermissionSet {
  bool all = false;
  std::vector<Permission> permissions;  // in enum order, no duplicates (an EnumSet)
};

// permissionOrAll: ALL [PERMISSIONS] | permission [PERMISSION] (, ...)*.
PermissionSet ParsePermissionOrAll(ParseContext& ctx) {
  PermissionSet set;
  if (ctx.LA(1) == TokenType::kKwAll) {
    ctx.Consume();
    if (ctx.LA(1) == TokenType::kKwPermissions) ctx.Consume();
    set.all = true;
    set.permissions.assign(std::begin(kAllPermissions), std::end(kAllPermissions));
    return set;
  }
  bool wanted[std::size(kAllPermissions)] = {};
  while (true) {
    if (!IsPermissionToken(ctx.LA(1))) ctx.MismatchSet();
    wanted[static_cast<size_t>(PermissionOf(ctx.LA(1)))] = true;
    ctx.Consume();
    if (ctx.LA(1) == TokenType::kKwPermission) ctx.Consume();
    if (ctx.LA(1) != TokenType::kComma) break;
    ctx.Consume();
  }
  for (Permission permission : kAllPermissions) {
    if (wanted[static_cast<size_t>(permission)]) set.permissions.push_back(permission);
  }
  return set;
}

// IResource.applicablePermissions() of Cassandra 4.1, and the resource
// class's simple name for the message when none applies.
std::vector<Permission> ApplicablePermissions(RK kind, const char*& class_name) {
  switch (kind) {
    case RK::kAllKeyspaces:
    case RK::kKeyspace:
    case RK::kAllTablesInKeyspace:
      class_name = "DataResource";
      return {P::kCreate, P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize};
    case RK::kTable:
      class_name = "DataResource";
      return {P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize};
    case RK::kAllRoles:
      class_name = "RoleResource";
      return {P::kCreate, P::kAlter, P::kDrop, P::kAuthorize, P::kDescribe};
    case RK::kRole:
      class_name = "RoleResource";
      return {P::kAlter, P::kDrop, P::kAuthorize};
    case RK::kAllFunctions:
    case RK::kAllFunctionsInKeyspace:
      class_name = "FunctionResource";
      return {P::kCreate, P::kAlter, P::kDrop, P::kAuthorize, P::kExecute};
    case RK::kFunction:
      class_name = "FunctionResource";
      return {P::kAlter, P::kDrop, P::kAuthorize, P::kExecute};
    default:  // JMX
      class_name = "JMXResource";
      return {P::kSelect, P::kModify, P::kAuthorize, P::kDescribe, P::kExecute};
  }
}

// filterPermissions: keeps the permissions that apply to the resource.
std::vector<Permission> FilterPermissions(ParseContext& ctx, const PermissionSet& set,
                                          const Resource& resource) {
  const char* class_name = "";
  std::vector<Permission> applicable = ApplicablePermissions(resource.kind, class_name);
  std::vector<Permission> filtered;
  for (Permission permission : set.permissions) {
    for (Permission allowed : applicable) {
      if (permission == allowed) filtered.push_back(permission);
    }
  }
  if (filtered.empty()) {
    ctx.ActionError(std::string("Resource type ") + class_name +
                    " does not support any of the requested permissions");
  }
  return filtered;
}

// mbean: a STRING_LITERAL, checked as canonicalizeObjectName checks it (the
// parts that do not need javax.management: Sibyl keeps the name as written).
std::string ParseMbean(ParseContext& ctx, bool plural) {
  std::string name(ctx.Match(TokenType::kStringLiteral).text);
  if (name.empty()) ctx.ActionError("Empty JMX object name supplied");
  if (name == "*:*") ctx.ActionError("Please use ALL MBEANS instead of wildcard pattern");
  if (name.find(':') == std::string::npos) {
    ctx.ActionError(name + " is not a valid JMX object name");
  } else if (plural && name.find_first_of("*?") == std::string::npos) {
    ctx.ActionError("Plural form used, but non-pattern JMX object name specified (" + name + ")");
  }
  return name;
}

// FUNCTION [ks.]f(types): the keyspace is mandatory (FunctionResource.functionFromCql).
void ParseFunctionResource(ParseContext& ctx, Resource& resource) {
  ctx.Consume();  // FUNCTION
  resource.kind = RK::kFunction;
  std::string keyspace;
  resource.name = ParseFunctionName(ctx, keyspace);
  ctx.Match(TokenType::kLParen);
  if (ctx.LA(1) != TokenType::kRParen) {
    resource.argument_types.push_back(ParseComparatorType(ctx));
    while (ctx.LA(1) == TokenType::kComma) {
      ctx.Consume();
      resource.argument_types.push_back(ParseComparatorType(ctx));
    }
  }
  ctx.Match(TokenType::kRParen);
  if (keyspace.empty()) {
    ctx.InvalidInAction("In this context function name must be explictly qualified by a keyspace");
  }
  resource.keyspace = std::move(keyspace);
}

// resource: dataResource | roleResource | functionResource | jmxResource.
// ALL, ROLE, FUNCTION, MBEAN and MBEANS are table names too; the token after
// them decides.
Resource ParseResource(ParseContext& ctx) {
  Resource resource;
  TokenType first = ctx.LA(1);
  TokenType second = ctx.LA(2);
  if (first == TokenType::kKwAll) {
    switch (second) {
      case TokenType::kKwKeyspaces:
        ctx.Consume();
        ctx.Consume();
        resource.kind = RK::kAllKeyspaces;
        return resource;
      case TokenType::kKwTables:
        ctx.Consume();
        ctx.Consume();
        ctx.Match(TokenType::kKwIn);
        ctx.Match(TokenType::kKwKeyspace);
        resource.kind = RK::kAllTablesInKeyspace;
        resource.keyspace = ParseKeyspaceName(ctx);
        return resource;
      case TokenType::kKwRoles:
        ctx.Consume();
        ctx.Consume();
        resource.kind = RK::kAllRoles;
        return resource;
      case TokenType::kKwFunctions:
        ctx.Consume();
        ctx.Consume();
        resource.kind = RK::kAllFunctions;
        if (ctx.LA(1) == TokenType::kKwIn) {
          ctx.Consume();
          ctx.Match(TokenType::kKwKeyspace);
          resource.kind = RK::kAllFunctionsInKeyspace;
          resource.keyspace = ParseKeyspaceName(ctx);
        }
        return resource;
      case TokenType::kKwMbeans:
        ctx.Consume();
        ctx.Consume();
        resource.kind = RK::kAllMbeans;
        return resource;
      default:
        break;  // a table named "all"
    }
  } else if (first == TokenType::kKwKeyspace) {
    ctx.Consume();
    resource.kind = RK::kKeyspace;
    resource.keyspace = ParseKeyspaceName(ctx);
    return resource;
  } else if (first == TokenType::kKwRole && IsRoleNameToken(second)) {
    ctx.Consume();
    resource.kind = RK::kRole;
    resource.name = ParseRoleName(ctx);
    return resource;
  } else if (first == TokenType::kKwFunction &&
             (IsFunctionNameToken(second) || second == TokenType::kQmark)) {
    ParseFunctionResource(ctx, resource);
    return resource;
  } else if ((first == TokenType::kKwMbean || first == TokenType::kKwMbeans) &&
             second == TokenType::kStringLiteral) {
    ctx.Consume();
    resource.kind = first == TokenType::kKwMbean ? RK::kMbean : RK::kMbeans;
    resource.name = ParseMbean(ctx, first == TokenType::kKwMbeans);
    return resource;
  } else if (first == TokenType::kKwColumnFamily) {
    ctx.Consume();
  }
  resource.kind = RK::kTable;
  QualifiedName table = ParseColumnFamilyName(ctx);
  resource.keyspace = std::move(table.keyspace);
  resource.name = std::move(table.name);
  return resource;
}

// Whether GRANT/REVOKE at LA(1) grants permissions (else a role).
// `preposition` is TO or FROM. ALL is both a permission and a role name.
bool IsPermissionStatement(ParseContext& ctx, TokenType preposition) {
  TokenType second = ctx.LA(2);
  if (IsPermissionToken(second)) return true;
  if (second == TokenType::kKwAll) {
    TokenType third = ctx.LA(3);
    if (third == preposition) return false;
    if (third == TokenType::kKwPermissions || third == TokenType::kKwOn) return true;
    ctx.NoViableAlt(3);
  }
  if (IsRoleNameToken(second)) return false;
  ctx.NoViableAlt(2);
}

// (OF roleName)? (NORECURSIVE)? of LIST PERMISSIONS and LIST ROLES.
void ParseListTail(ParseContext& ctx, std::optional<std::string>& grantee, bool& recursive) {
  if (ctx.LA(1) == TokenType::kKwOf) {
    ctx.Consume();
    grantee = ParseRoleName(ctx);
  }
  if (ctx.LA(1) == TokenType::kKwNorecursive) {
    ctx.Consume();
    recursive = false;
  }
}

}  // namespace

Statement ParseGrantStatement(ParseContext& ctx) {
  if (IsPermissionStatement(ctx, TokenType::kKwTo)) {
    ctx.Consume();  // GRANT
    GrantPermissionsStatement grant;
    PermissionSet set = ParsePermissionOrAll(ctx);
    ctx.Match(TokenType::kKwOn);
    grant.resource = ParseResource(ctx);
    ctx.Match(TokenType::kKwTo);
    grant.grantee = ParseRoleName(ctx);
    grant.all_permissions = set.all;
    grant.permissions = FilterPermissions(ctx, set, grant.resource);
    return grant;
  }
  ctx.Consume();  // GRANT
  GrantRoleStatement grant;
  grant.role = ParseRoleName(ctx);
  ctx.Match(TokenType::kKwTo);
  grant.grantee = ParseRoleName(ctx);
  return grant;
}

Statement ParseRevokeStatement(ParseContext& ctx) {
  if (IsPermissionStatement(ctx, TokenType::kKwFrom)) {
    ctx.Consume();  // REVOKE
    RevokePermissionsStatement revoke;
    PermissionSet set = ParsePermissionOrAll(ctx);
    ctx.Match(TokenType::kKwOn);
    revoke.resource = ParseResource(ctx);
    ctx.Match(TokenType::kKwFrom);
    revoke.revokee = ParseRoleName(ctx);
    revoke.all_permissions = set.all;
    revoke.permissions = FilterPermissions(ctx, set, revoke.resource);
    return revoke;
  }
  ctx.Consume();  // REVOKE
  RevokeRoleStatement revoke;
  revoke.role = ParseRoleName(ctx);
  ctx.Match(TokenType::kKwFrom);
  revoke.revokee = ParseRoleName(ctx);
  return revoke;
}

Statement ParseListStatement(ParseContext& ctx) {
  TokenType second = ctx.LA(2);
  if (second == TokenType::kKwRoles) {
    ctx.Consume();
    ctx.Consume();
    ListRolesStatement list;
    ParseListTail(ctx, list.grantee, list.recursive);
    return list;
  }
  if (second == TokenType::kKwUsers) {
    ctx.Consume();
    ctx.Consume();
    ListRolesStatement list;
    list.users_form = true;
    return list;
  }
  if (second != TokenType::kKwAll && !IsPermissionToken(second)) ctx.NoViableAlt(2);
  ctx.Consume();  // LIST
  ListPermissionsStatement list;
  PermissionSet set = ParsePermissionOrAll(ctx);
  list.all_permissions = set.all;
  list.permissions = std::move(set.permissions);
  if (ctx.LA(1) == TokenType::kKwOn) {
    ctx.Consume();
    list.resource = ParseResource(ctx);
  }
  ParseListTail(ctx, list.grantee, list.recursive);
  return list;
}

}  // namespace sibyl::cql::parser_internal
