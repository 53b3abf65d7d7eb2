// GET /.well-known/x402.json - the same document at the location PR #2646 names as canonical
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "../x402/route";
