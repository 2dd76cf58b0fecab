export const TICKET_STATUSES = ["open", "in_progress", "resolved", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export interface TicketEvent {
  at: string;
  status: TicketStatus;
  note: string;
}

export interface Ticket {
  id: string;
  summary: string;
  history: TicketEvent[];
}

/** A small local ticket store: an in-memory map, seeded so the example answers out of the box. */
export class TicketStore {
  private readonly tickets = new Map<string, Ticket>();

  constructor(seed: readonly Ticket[] = SEED) {
    for (const ticket of seed) this.tickets.set(ticket.id, structuredClone(ticket));
  }

  get(id: string): Ticket | undefined {
    const ticket = this.tickets.get(id.trim());
    return ticket && structuredClone(ticket);
  }

  ids(): string[] {
    return [...this.tickets.keys()].sort();
  }
}

const SEED: Ticket[] = [
  {
    id: "T-1001",
    summary: "Login page returns 500 after password reset",
    history: [
      { at: "2026-11-20T09:12:00Z", status: "open", note: "reported by support" },
      { at: "2026-11-21T14:03:00Z", status: "in_progress", note: "assigned to auth team" },
    ],
  },
  {
    id: "T-1002",
    summary: "Export to CSV drops the last row",
    history: [
      { at: "2026-11-02T10:00:00Z", status: "open", note: "reported by a customer" },
      { at: "2026-11-05T16:30:00Z", status: "in_progress", note: "off-by-one found" },
      { at: "2026-11-06T11:45:00Z", status: "resolved", note: "fix released in 4.2.1" },
    ],
  },
  {
    id: "INC-7",
    summary: "Nightly backup job skipped on Sunday",
    history: [
      { at: "2026-10-12T03:00:00Z", status: "open", note: "alert fired" },
      { at: "2026-10-13T08:20:00Z", status: "closed", note: "duplicate of INC-5" },
    ],
  },
];
