/** A webhook delivery's state as a seller reads it (the stored word stays on hover). */
export const DELIVERY_WORDS: Record<string, string> = { succeeded: "Delivered", pending: "Pending", failed: "Failed" };
