#!/usr/bin/env bash
# The CLI for a person: what the model would see, then calls as the host runs them.
set -euo pipefail

# what the model sees for this folder: budget bar, tools, attachments, cuts, prefixHash
toolplane catalog --provider anthropic

# one call, as the host runs it: validation, permissions, limits; a deferred tool is loaded first
toolplane call ticket_status --args '{"ticket_id": "T-1001"}'

# a read, then an edit in the same session (edit refuses a file this session has not read)
toolplane call read --args '{"path": "notes.txt"}' --session demo
toolplane call edit --args '{"path": "notes.txt", "oldString": "draft", "newString": "final"}' --session demo --yes
