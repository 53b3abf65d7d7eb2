import { handleQuote } from "@/server/gateway/quote";
import { methods } from "@/server/http/route";

export const dynamic = "force-dynamic";

// POST /vendor/agent/quote - free guide for a goal; needs only a $0 wallet proof (x402 Payment-Signature, or MPP)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ POST: handleQuote });
