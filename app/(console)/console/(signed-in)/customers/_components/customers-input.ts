// The Customers page's wallets query from its URL (range and page), the same for the server's prefetch and the browser.
import { rangeFrom } from "../../../_components/range";

export const payersInput = (params: URLSearchParams) => ({ ...rangeFrom(params), page: Math.max(1, Number(params.get("page") ?? 1) || 1) });

export const cardPayersInput = (params: URLSearchParams) => rangeFrom(params);
