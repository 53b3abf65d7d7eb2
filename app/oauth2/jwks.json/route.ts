import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { publicJwks } from "@/server/identity/signing-keys";

// GET /oauth2/jwks.json - public keys of the identity platform (the newest two, so rotation is seamless)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async () => json(await publicJwks(), { headers: { "cache-control": "public, max-age=300", "content-type": "application/jwk-set+json" } }),
});
