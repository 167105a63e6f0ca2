// Package thread keeps askls's conversations (agent.Thread) on disk: one
// JSON file per thread under <cache>/threads/<workspace key>/, where cache
// is the index's cache base ($ASKLS_CACHE_DIR, else os.UserCacheDir()/askls)
// and the key is a hash of the workspace's roots. Every save writes the
// whole thread to a temporary file and renames it over the old one, so a
// crash while writing loses at most the turn in flight. The store is
// bounded: at most MaxThreads threads and none idle longer than MaxAge;
// the oldest go first when a thread is saved.
//
// Concurrency: a *Store is safe for concurrent use. Two processes sharing
// a folder never see a half-written file. A turn is taken under the
// thread's file lock (BeginTurn: lock, reload, then Save and unlock), so
// follow-ups from several processes run one after the other and none is
// lost; Delete waits for a turn in flight.
package thread
