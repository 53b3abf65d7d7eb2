// GET /.well-known/openid-configuration - the same RFC 8414 metadata as /.well-known/oauth-authorization-server, where
// OpenID Connect discovery (and oauth4webapi's default `discoveryRequest`) looks for it (RFC 8414 section 5)
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "../oauth-authorization-server/route";
