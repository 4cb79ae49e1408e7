package mcp

import (
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TokenTarget is what the tool list may cost a session's context:
// Claude Code sends every tool's name, description and schema with each
// request, so this is paid on every turn.
const TokenTarget = 800

// CharTarget is [TokenTarget] in characters: what the tools array of a
// tools/list answer may hold, names, descriptions, schemas and
// annotations, as the server sends it.
const CharTarget = 4 * TokenTarget

// ListCost is what a tools/list answer's tools cost: the characters of
// their compact JSON and the tokens estimated as a quarter of them (the
// usual rule of thumb for English prose and JSON; Claude Code sends less —
// the name, description and schema, without the annotations).
func ListCost(tools []*sdk.Tool) (chars, tokens int, err error) {
	b, err := json.Marshal(tools)
	if err != nil {
		return 0, 0, err
	}
	return len(b), (len(b) + 3) / 4, nil
}
