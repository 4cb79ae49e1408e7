# cerebro — build, test and install the memhook helper and the plugin.
# memhook is pure Go: built with CGO_ENABLED=0 it is one static binary.
# memhook-hot, built beside it, runs the hooks of every turn and every tool
# call (UserPromptSubmit, Stop, PreToolUse, PostToolUse, PostToolUseFailure)
# without memhook's start-up cost and hands it the rest.
GO ?= go
EXE := $(shell $(GO) env GOEXE)
BIN := bin/memhook$(EXE)
HOT := bin/memhook-hot$(EXE)
VERSION ?= $(shell sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' .claude-plugin/plugin.json)
LDFLAGS := -s -w -X github.com/cerebro-mem/cerebro/internal/cli.Version=$(VERSION)

.PHONY: build test e2e e2e-latest install uninstall bench vet lint clean screenshots

# Says what it does: on a fresh machine the module download printed dozens
# of "go: downloading" lines and then the compile nothing for minutes.
build:
	@echo "make: fetching the Go modules memhook needs (quiet; the first time takes a while)..."
	@$(GO) mod download
	@echo "make: compiling bin/memhook and bin/memhook-hot (a minute or more on a slow machine, silent until done)..."
	@CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/memhook
	@CGO_ENABLED=0 $(GO) build -trimpath -ldflags '-s -w' -o $(HOT) ./cmd/memhook-hot
	@echo "make: built $(BIN) and $(HOT)"

vet:
	$(GO) vet ./...

# staticcheck (its unused check included), at a pinned version fetched by
# the go command; nothing is added to go.mod.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
# deadcode -test: a function no binary or test reaches.
DEADCODE ?= golang.org/x/tools/cmd/deadcode@v0.52.0
# Every platform the plugin claims: the binaries build and the tests compile
# (vet type-checks them) for Windows and macOS, not only for this machine.
lint:
	$(GO) run $(STATICCHECK) ./...
	@dead=$$($(GO) run $(DEADCODE) -test ./...) || exit 1; \
	  if [ -n "$$dead" ]; then echo "$$dead"; echo "lint: deadcode found unreachable functions" >&2; exit 1; fi
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/...
	GOOS=windows GOARCH=amd64 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./...

# The whole suite; at its end, what this machine could not test (Chromium,
# ../shared) and the command that fixes each (scripts/test).
test: build vet
	GO=$(GO) ./scripts/test

install: build
	./scripts/install

# Removes what install added outside Claude Code: the short commands (a
# person's own command files are kept) and the memhook launcher. The plugin
# itself: claude plugin uninstall cerebro@cerebro.
uninstall: build
	./scripts/uninstall

e2e: build
	./e2e/run

# The same suite against npm's latest Claude Code (installed in e2e/.latest),
# ending with what differs from the pinned release.
e2e-latest: build
	./e2e/run --latest

bench: build
	./bench/run

# The pages of `memhook serve`, taken by its browser tests (needs chromium).
screenshots:
	CEREBRO_SCREENSHOTS=docs/screenshots $(GO) test -count=1 -run Browser ./internal/serve/

clean:
	rm -rf bin
