// Package thread owns askls's conversations: the plain data of a thread
// (Thread, Turn, Evidence), which the agent fills and the workspace asks
// in, and their store on disk: one JSON file per thread under
// <cache>/threads/<workspace key>/, where cache is the folder the
// workspace resolved for the index too and the key is a hash of the
// workspace's roots. It imports neither the agent nor the index. Every
// save writes the whole thread to a temporary file and renames it over the
// old one, so a crash while writing loses at most the turn in flight. The store is
// bounded: at most MaxThreads threads and none idle longer than MaxAge;
// the oldest go first when a thread is saved.
//
// Concurrency: a *Store is safe for concurrent use. Two processes sharing
// a folder never see a half-written file. A turn is taken under the
// thread's file lock (BeginTurn: lock, reload, then Save and unlock), so
// follow-ups from several processes run one after the other and none is
// lost; Delete waits for a turn in flight.
package thread
