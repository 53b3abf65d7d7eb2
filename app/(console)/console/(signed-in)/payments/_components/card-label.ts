/** "VISA •••• 4242 (test)": what a card payment shows in place of a wallet. */
export function cardLabel(card: { brand: string | null; last4: string | null; flow: string; processor: string }): string {
  return `${card.brand && card.last4 ? `${card.brand.toUpperCase()} •••• ${card.last4}` : card.flow}${card.processor === "test" ? " (test)" : ""}`;
}
