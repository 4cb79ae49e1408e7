package cli

import (
	"encoding/json"
)

func jsonString(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}
