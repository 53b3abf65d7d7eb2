/** `source` of every data response except average interest rates (SERVICE.md part 1: the service's own name). */
export const MARKET_SOURCE = "market-data";

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
