package schedule

// Backends returns the schedulers that may hold cerebro's entry on goos,
// the one to install into first. On Linux either backend may hold an entry
// from an earlier install (systemd's user manager comes and goes with the
// login setup), so both are returned, the usable one first; install and
// remove then clear the other one too.
func (e *Executor) Backends(goos string) ([]Backend, error) {
	if goos != "linux" {
		b, err := BackendFor(goos, false)
		if err != nil {
			return nil, err
		}
		return []Backend{b}, nil
	}
	if e.SystemdUsable() {
		return []Backend{Systemd, Cron}, nil
	}
	return []Backend{Cron, Systemd}, nil
}

// Statuses reports the entry of backends[0] and every other backend that
// holds one.
func (e *Executor) Statuses(t Target, backends []Backend) []Status {
	var out []Status
	for i, b := range backends {
		t.Backend = b
		if st := e.Status(t); st.Installed || i == 0 {
			out = append(out, st)
		}
	}
	return out
}

// InstallAllPlan installs t's entry into backends[0] and, when clearOthers,
// first removes the entry any other backend holds, so that exactly one
// scheduler runs the rollup. t.Backend is ignored.
func (e *Executor) InstallAllPlan(t Target, backends []Backend, clearOthers bool) (Plan, error) {
	t.Backend = backends[0]
	plan, err := InstallPlan(t)
	if err != nil {
		return plan, err
	}
	if clearOthers {
		for _, b := range backends[1:] {
			o := t
			o.Backend = b
			if e.Status(o).Installed {
				plan.Steps = append(RemovePlan(o).Steps, plan.Steps...)
			}
		}
	}
	return plan, nil
}

// RemoveAllPlan removes the entry of backends[0] and of every other
// backend that holds one. t.Backend is ignored.
func (e *Executor) RemoveAllPlan(t Target, backends []Backend) Plan {
	plan := Plan{Backend: backends[0]}
	for i, b := range backends {
		t.Backend = b
		if i == 0 || e.Status(t).Installed {
			plan.Steps = append(plan.Steps, RemovePlan(t).Steps...)
		}
	}
	return plan
}
