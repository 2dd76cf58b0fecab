import { z } from "zod";
import { defineTool } from "../../declare/index.js";
import { TICKET_STATUSES, type TicketStore } from "./store.js";

const parameters = z.object({
  // No format check on the id: teams use different formats, and a strict one rejects valid input.
  ticket_id: z.string().min(1).describe("The ticket's ID, as the user gave it"),
  include_history: z.boolean().default(false).describe("Also return the ticket's status history"),
});

const output = z.object({
  status: z.enum(TICKET_STATUSES),
  summary: z.string(),
  // Optional: most lookups don't need it, and returning it by default doubles the result.
  history: z
    .array(z.object({ at: z.string(), status: z.enum(TICKET_STATUSES), note: z.string() }))
    .optional(),
});

export type TicketStatusResult = z.infer<typeof output>;

export const TICKET_STATUS_DESCRIPTION =
  "Look up the current status of a support ticket by its ID, with optional history. " +
  "Returns the status and a one-line summary. Not for creating or changing tickets.";

export function ticketStatusTool(store: TicketStore) {
  return defineTool({
    name: "ticket_status",
    description: TICKET_STATUS_DESCRIPTION,
    parameters,
    output: {
      schema: output,
      render: (value: TicketStatusResult) => {
        const head = `status: ${value.status}\nsummary: ${value.summary}`;
        if (!value.history) return head;
        const lines = value.history.map((e) => `- ${e.at} ${e.status}: ${e.note}`);
        return `${head}\nhistory:\n${lines.join("\n")}`;
      },
    },
    execute: ({ ticket_id, include_history }) => {
      const ticket = store.get(ticket_id);
      if (!ticket) throw new Error(`no ticket "${ticket_id}"; check the ID with the user`);
      const last = ticket.history.at(-1);
      const result: TicketStatusResult = { status: last?.status ?? "open", summary: ticket.summary };
      if (include_history) result.history = ticket.history;
      return result;
    },
    timeoutMs: 10_000,
    concurrencySafe: true,
    annotations: { title: "Ticket status", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    display: { title: "Ticket status", summarize: (args) => `ticket ${args.ticket_id}` },
    permission: { action: "ticket:read", patterns: (args) => [args.ticket_id] },
    selection: {
      shouldSelect: [
        {
          task: "What is the current status of support ticket T-1001? Has anyone picked it up yet?",
          args: { ticket_id: "T-1001" },
        },
      ],
      shouldNotSelect: [{ task: "Open a new ticket reporting that the CSV export drops rows." }],
    },
  });
}
