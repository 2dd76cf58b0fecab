export { mergeSources, nextInvalidation } from "./merge.js";
export { type Subscription, type SubscriptionOptions, subscribe } from "./subscription.js";
export type { InvalidationSource } from "./types.js";
