package runrec

import (
	"strings"
	"time"

	"github.com/cerebro-mem/cerebro/internal/store/safefs"
)

// Turn is one session's turn as the hooks record it: the Skill tool opens
// a turn record (the skill at its version), every later tool of the turn
// is added to it, and Stop closes it with its wall time. The open-turn
// marker says which record is open.
type Turn struct {
	Journal Journal
	Marker  string // the session's open-turn marker (config.Paths.OpenTurn)
	Session string
	// Version gives a skill's version by name ("" when unknown).
	Version func(skill string) string
}

// Record records one tool of the turn: tool is the tool's name (a Bash
// call named by its verb, [BashTool]); skill is the Skill tool's
// tool_input.skill ("plugin:name" or "name"). Other tools outside an open
// turn record nothing.
func (t Turn) Record(tool, skill string, now time.Time) error {
	id, _, open := ReadTurnMarker(t.Marker, now)
	switch {
	case tool == "Skill":
		if i := strings.LastIndexByte(skill, ':'); i >= 0 {
			skill = skill[i+1:]
		}
		if skill == "" {
			return nil
		}
		if open {
			return t.Journal.Tool(id, "Skill("+skill+")", now)
		}
		run := Run{ID: NewID(now), Time: now, Kind: KindTurn, Session: t.Session, Tools: []string{"Skill(" + skill + ")"}, Open: true}
		sk := Skill{Name: skill}
		if t.Version != nil {
			sk.Version = t.Version(skill)
		}
		run.Skills = []Skill{sk}
		if err := t.Journal.Append(run); err != nil {
			return err
		}
		return WriteTurnMarker(t.Marker, run.ID, now)
	case open:
		return t.Journal.Tool(id, tool, now)
	}
	return nil
}

// End closes the turn at Stop with its wall time and removes the marker
// (also a stale one). Without an open turn it costs one failed open.
func (t Turn) End(now time.Time) error {
	id, start, open := ReadTurnMarker(t.Marker, now)
	if id == "" {
		return nil
	}
	safefs.Remove(t.Marker)
	if !open {
		return nil
	}
	return t.Journal.End(id, now.Sub(start).Seconds(), now)
}
