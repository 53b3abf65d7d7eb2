// The funnel's query from its URL (range, operation, rail), the same for the server's prefetch and the browser.
import { rangeFrom } from "../../../_components/range";

export const funnelInput = (params: URLSearchParams) => ({
  ...rangeFrom(params, "7d"),
  operation: params.get("operation") || null,
  rail: params.get("rail") || null,
});
