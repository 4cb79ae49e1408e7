package search

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"
)

// Embedder turns texts into vectors. ID names the provider and model; it
// is part of the index fingerprint.
type Embedder interface {
	ID() string
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedConfig chooses a provider: "ollama" (POST {url}/api/embeddings, one
// text per call) or "openai" (any OpenAI-compatible POST
// {url}/v1/embeddings).
type EmbedConfig struct {
	Provider string
	URL      string
	Model    string
	APIKey   string
	Timeout  time.Duration
	Client   *http.Client // nil for a client with Timeout
}

// NewEmbedder returns the configured provider, or nil when none is
// configured.
func NewEmbedder(c EmbedConfig) (Embedder, error) {
	client := c.Client
	if client == nil {
		t := c.Timeout
		if t <= 0 {
			t = 10 * time.Second
		}
		client = &http.Client{Timeout: t}
	}
	switch c.Provider {
	case "":
		return nil, nil
	case "ollama":
		url := c.URL
		if url == "" {
			url = "http://localhost:11434"
		}
		return &ollama{url: strings.TrimRight(url, "/"), model: c.Model, client: client}, nil
	case "openai":
		url := c.URL
		if url == "" {
			url = "https://api.openai.com"
		}
		url = strings.TrimRight(url, "/")
		if !strings.HasSuffix(url, "/embeddings") {
			url = strings.TrimSuffix(url, "/v1") + "/v1/embeddings"
		}
		return &openAI{url: url, model: c.Model, key: c.APIKey, client: client}, nil
	}
	return nil, fmt.Errorf("unknown embedding provider %q (want ollama or openai)", c.Provider)
}

type ollama struct {
	url, model string
	client     *http.Client
}

func (o *ollama) ID() string { return "ollama/" + o.model }

func (o *ollama) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		var resp struct {
			Embedding []float32 `json:"embedding"`
		}
		body := map[string]string{"model": o.model, "prompt": t}
		if err := postJSON(ctx, o.client, o.url+"/api/embeddings", "", body, &resp); err != nil {
			return nil, fmt.Errorf("embed with ollama: %w", err)
		}
		if len(resp.Embedding) == 0 {
			return nil, errors.New("embed with ollama: empty vector")
		}
		out[i] = resp.Embedding
	}
	return out, nil
}

type openAI struct {
	url, model, key string
	client          *http.Client
}

func (o *openAI) ID() string { return "openai/" + o.model }

func (o *openAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	var resp struct {
		Data []struct {
			Embedding []float32 `json:"embedding"`
			Index     int       `json:"index"`
		} `json:"data"`
	}
	body := map[string]any{"model": o.model, "input": texts}
	if err := postJSON(ctx, o.client, o.url, o.key, body, &resp); err != nil {
		return nil, fmt.Errorf("embed with %s: %w", o.url, err)
	}
	out := make([][]float32, len(texts))
	for _, d := range resp.Data {
		if d.Index < 0 || d.Index >= len(texts) {
			return nil, fmt.Errorf("embed with %s: index %d out of range", o.url, d.Index)
		}
		out[d.Index] = d.Embedding
	}
	for i, v := range out {
		if len(v) == 0 {
			return nil, fmt.Errorf("embed with %s: no vector for input %d", o.url, i)
		}
	}
	return out, nil
}

func postJSON(ctx context.Context, c *http.Client, url, key string, body, into any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		msg := strings.TrimSpace(string(raw))
		if len(msg) > 200 {
			msg = msg[:200]
		}
		return fmt.Errorf("status %d: %s", resp.StatusCode, msg)
	}
	return json.Unmarshal(raw, into)
}

// embedMissing embeds chunks stored without a vector, in batches, until
// done, ctx ends or the provider fails.
func (ix *Index) embedMissing(ctx context.Context) error {
	const batch = 32
	for ctx.Err() == nil {
		rows, err := ix.db.QueryContext(ctx, `SELECT id, text FROM chunks WHERE root = ? AND embedding IS NULL LIMIT ?`, ix.id, batch)
		if err != nil {
			return fmt.Errorf("embed chunks: %w", err)
		}
		var ids []int64
		var texts []string
		for rows.Next() {
			var id int64
			var t string
			if err := rows.Scan(&id, &t); err != nil {
				rows.Close()
				return fmt.Errorf("embed chunks: %w", err)
			}
			ids, texts = append(ids, id), append(texts, t)
		}
		rows.Close()
		if len(ids) == 0 {
			return nil
		}
		vecs, err := ix.params.Embedder.Embed(ctx, texts)
		if err != nil {
			return err
		}
		tx, err := ix.db.Begin()
		if err != nil {
			return fmt.Errorf("embed chunks: %w", err)
		}
		for i, id := range ids {
			if _, err := tx.Exec(`UPDATE chunks SET embedding=? WHERE id=?`, encodeVector(vecs[i]), id); err != nil {
				tx.Rollback()
				return fmt.Errorf("embed chunks: %w", err)
			}
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("embed chunks: %w", err)
		}
	}
	return nil
}

// Vectors are stored as little-endian float32s, normalized to unit length
// so that a dot product is the cosine.
func encodeVector(v []float32) []byte {
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	norm = math.Sqrt(norm)
	if norm == 0 {
		norm = 1
	}
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(float64(x)/norm)))
	}
	return b
}

func decodeVector(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

func normalize(v []float32) []float32 { return decodeVector(encodeVector(v)) }

func dot(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}
