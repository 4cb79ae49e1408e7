package search

import "strings"

// Chunk is a run of whole lines of one file.
type Chunk struct {
	StartLine int // 1-based, inclusive
	EndLine   int
	Text      string
}

// charsPerToken estimates tokens from characters, the usual rule of thumb
// for English and close enough for chunk sizing elsewhere.
const charsPerToken = 4

// ChunkLines cuts text into chunks of about maxTokens tokens, each
// starting so that it repeats about overlapTokens of the previous chunk.
// Chunks hold whole lines, so a line longer than a chunk is a chunk of its
// own; blank-only chunks are skipped.
func ChunkLines(text string, maxTokens, overlapTokens int) []Chunk {
	return chunkLines(strings.Split(strings.TrimSuffix(text, "\n"), "\n"), maxTokens, overlapTokens)
}

// chunkLines is [ChunkLines] of the lines of a text, split already (the
// index has them; a text ending in a newline has no empty last line).
func chunkLines(lines []string, maxTokens, overlapTokens int) []Chunk {
	if maxTokens <= 0 {
		maxTokens = 400
	}
	if overlapTokens < 0 || overlapTokens >= maxTokens {
		overlapTokens = 0
	}
	maxChars, overlapChars := maxTokens*charsPerToken, overlapTokens*charsPerToken
	var out []Chunk
	start := 0
	for start < len(lines) {
		end, size := start, 0
		for end < len(lines) && (end == start || size+len(lines[end])+1 <= maxChars) {
			size += len(lines[end]) + 1
			end++
		}
		body := strings.Join(lines[start:end], "\n")
		if strings.TrimSpace(body) != "" {
			out = append(out, Chunk{StartLine: start + 1, EndLine: end, Text: body})
		}
		if end >= len(lines) {
			break
		}
		// step back over whole lines worth about overlapChars, but always
		// move forward at least one line
		next, back := end, 0
		for next-1 > start && back+len(lines[next-1])+1 <= overlapChars {
			next--
			back += len(lines[next]) + 1
		}
		start = next
	}
	return out
}
