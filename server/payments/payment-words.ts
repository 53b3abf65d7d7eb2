// The payment words live in server/contracts/payment-words.ts, the one table the console and the server share; this
// module keeps the CSV writers' import path.
export { cardWords, railWords, STATUS_WORDS } from "../contracts/payment-words";
