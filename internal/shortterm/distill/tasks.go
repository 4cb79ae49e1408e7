package distill

import (
	"strings"

	"github.com/cerebro-mem/cerebro/internal/shortterm/transcript"
)

// taskList is the state the task tools (TaskCreate, TaskUpdate) leave.
type taskList struct {
	order   []string
	subject map[string]string
	status  map[string]string
	n       int
}

func (l *taskList) apply(t transcript.Tool) {
	if l.subject == nil {
		l.subject, l.status = map[string]string{}, map[string]string{}
	}
	switch t.Name {
	case "TaskCreate":
		id := t.Input.TaskID
		if id == "" {
			id = taskCreated(t.Result)
		}
		if id == "" {
			l.n++
			id = "#" + itoa(l.n)
		}
		if _, ok := l.subject[id]; !ok {
			l.order = append(l.order, id)
		}
		l.subject[id] = t.Input.Subject
		l.status[id] = "pending"
	case "TaskUpdate":
		id := t.Input.TaskID
		if _, ok := l.subject[id]; !ok {
			l.order = append(l.order, id)
		}
		if t.Input.Subject != "" {
			l.subject[id] = t.Input.Subject
		}
		if t.Input.Status != "" {
			l.status[id] = t.Input.Status
		}
	}
}

// taskCreated reads the id Claude Code gave a created task ("Task #3
// created successfully").
func taskCreated(r *transcript.Result) string {
	if r == nil {
		return ""
	}
	t := r.Text
	if i := strings.Index(t, "Task #"); i >= 0 {
		rest := t[i+6:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 {
			return rest[:j]
		}
	}
	return ""
}

func (l *taskList) open() []string {
	var out []string
	for _, id := range l.order {
		s := l.subject[id]
		if s == "" {
			s = "task " + id
		}
		switch l.status[id] {
		case "completed", "deleted", "resolved":
		case "in_progress":
			out = append(out, "in progress: "+oneLine(s))
		default:
			out = append(out, "todo: "+oneLine(s))
		}
	}
	return out
}
