import type { AnyTool } from "../../declare/types.js";
import type { Provider } from "../../register/types.js";
import { TicketStore } from "./store.js";
import { ticketStatusTool } from "./tool.js";

export { TicketStore } from "./store.js";
export { TICKET_STATUS_DESCRIPTION, ticketStatusTool } from "./tool.js";

/** The example's provider: registered in the global layer as `ticket` (it needs no project). */
export function ticketProvider(store = new TicketStore()): Provider<AnyTool> {
  const tools = [ticketStatusTool(store)];
  return { name: "ticket", rank: 100, enumerate: () => tools };
}
