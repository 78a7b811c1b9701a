import Testing
@testable import MDoc

/// The issuer chain cache is a bounded LRU: unique entries evict the least recently used, never the hot ones.
struct LRUCacheTests {
    @Test func evictsTheLeastRecentlyUsed() {
        var cache = LRUCache<Int, String>(capacity: 3)
        cache.insert("a", forKey: 1)
        cache.insert("b", forKey: 2)
        cache.insert("c", forKey: 3)
        #expect(cache.value(forKey: 1) == "a")  // 1 is now the most recent
        cache.insert("d", forKey: 4)  // evicts 2
        #expect(cache.contains(1) && !cache.contains(2) && cache.contains(3) && cache.contains(4))
        #expect(cache.count == 3)
    }

    @Test func aStreamOfUniqueKeysKeepsAHotEntry() {
        var cache = LRUCache<Int, Int>(capacity: 8)
        cache.insert(0, forKey: -1)
        for key in 0..<10_000 {
            cache.insert(key, forKey: key)
            if key % 4 == 0 { #expect(cache.value(forKey: -1) == 0) }
        }
        #expect(cache.contains(-1))
        #expect(cache.count == 8)
    }

    @Test func updatingAKeyKeepsOneEntry() {
        var cache = LRUCache<String, Int>(capacity: 2)
        cache.insert(1, forKey: "x")
        cache.insert(2, forKey: "x")
        #expect(cache.count == 1)
        #expect(cache.value(forKey: "x") == 2)
    }

    @Test func capacityOneWorks() {
        var cache = LRUCache<Int, Int>(capacity: 1)
        for key in 0..<5 { cache.insert(key, forKey: key) }
        #expect(cache.count == 1 && cache.contains(4))
    }
}
