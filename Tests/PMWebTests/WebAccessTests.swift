import PMICU
import Testing

@testable import PMWeb

/// Who gets in, and what a request may say (DESIGN.md §16), without a server.
@Suite struct WebAccessTests {
    func request(_ headers: [String: String], method: String = "POST") -> WebRequest {
        WebRequest(method: method, path: "/api/add", query: [:], headers: headers, body: [])
    }

    @Test func theTokenLetsOneBrowserInOnce() throws {
        var access = WebAccess()
        access.serve(address: "127.0.0.1", port: 8080)
        let token = try #require(access.entryToken)
        #expect(token.count == 64)
        #expect(access.enter(with: String(repeating: "0", count: 64), as: "ji-woo") == nil)
        #expect(access.enter(with: nil, as: "ji-woo") == nil)
        let entered = access.enter(with: token, as: "ji-woo")
        let key = try #require(entered)
        #expect(access.entryToken == nil)
        #expect(access.enter(with: token, as: "ji-woo") == nil, "a token works once")
        let visitor = try #require(access.visitor(request(["cookie": "other=1; pm_8080=" + key])))
        #expect(visitor.person == "ji-woo")
        #expect(access.visitor(request(["cookie": "pm_8081=" + key])) == nil, "another port's cookie")
        // Its last digit changed (to another: a key ending in 0 was once "changed" to itself, 1 run in 16).
        let changed = key.dropLast() + (key.last == "0" ? "1" : "0")
        #expect(access.visitor(request(["cookie": "pm_8080=" + changed])) == nil)
        #expect(access.cookie(key).contains("HttpOnly") && access.cookie(key).contains("SameSite=Strict"))
        #expect(access.csrfMatches(visitor.csrf, for: visitor))
        #expect(!access.csrfMatches(nil, for: visitor) && !access.csrfMatches(String(visitor.csrf.dropLast()), for: visitor))
    }

    @Test func onlyTheAddressServedIsAHost() {
        var access = WebAccess()
        access.serve(address: "127.0.0.1", port: 8080)
        for host in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST:8080"] { #expect(access.hostAllowed(host), "\(host)") }
        for host in ["127.0.0.1", "evil.example:8080", "127.0.0.1:8081", "127.0.0.1:8080.evil", "", "localhost"] {
            #expect(!access.hostAllowed(host), "\(host)")
        }
        #expect(!access.hostAllowed(nil))
        var six = WebAccess()
        six.serve(address: "::1", port: 9)
        #expect(six.hostAllowed("[::1]:9") && six.hostAllowed("localhost:9") && !six.hostAllowed("::1:9"))
    }

    @Test func aWriteMustComeFromThePageItself() {
        var access = WebAccess()
        access.serve(address: "127.0.0.1", port: 8080)
        let host = ["host": "127.0.0.1:8080"]
        #expect(access.sameOrigin(request(host.merging(["origin": "http://127.0.0.1:8080"]) { a, _ in a })))
        for origin in ["http://evil.example", "https://127.0.0.1:8080", "http://127.0.0.1:8081", "null", ""] {
            #expect(!access.sameOrigin(request(host.merging(["origin": origin]) { a, _ in a })), "\(origin)")
        }
        #expect(!access.sameOrigin(request(host)), "no Origin")
        let crossSite = host.merging(["origin": "http://127.0.0.1:8080", "sec-fetch-site": "cross-site"]) { a, _ in a }
        #expect(!access.sameOrigin(request(crossSite)))
    }
}

@Suite struct WebRequestTests {
    @Test func formsAndQueriesDecodeAsBrowsersWriteThem() {
        #expect(FormFields.decode("a=1&b=x+y%20z&c=%C3%A9&a=2") == ["a": "1", "b": "x y z", "c": "é"])
        #expect(FormFields.decode("bad=%E9&ok=1") == ["ok": "1"], "bytes that are not UTF-8 are dropped")
        #expect(FormFields.decode("broken=%4&empty=&flag") == ["empty": "", "flag": ""])
        let (path, query) = WebRequest.split("/board?q=caf%C3%A9&mine=1")
        #expect(path == "/board" && query == ["q": "café", "mine": "1"])
        #expect(WebRequest.split("/").path == "/")
    }

    @Test func cookiesAreReadFirstOneWins() {
        let request = WebRequest(method: "GET", path: "/", query: [:], headers: ["cookie": "a=1; b = 2 ;a=3; junk"], body: [])
        #expect(request.cookies == ["a": "1", "b": "2"])
    }

    @Test func theReadersLanguagesComeInTheOrderTheyAskForThem() {
        #expect(WebReaders.acceptedLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr-CH", "fr", "en", "de"])
        #expect(WebReaders.acceptedLanguages("en;q=0.1, ko") == ["ko", "en"])
        #expect(WebReaders.acceptedLanguages("ko;q=0, fr") == ["fr"])
        #expect(WebReaders.acceptedLanguages("<script>, ../../etc, fr") == ["fr"])
        #expect(WebReaders.acceptedLanguages("") == [])
        #expect(WebReaders.expand("fr-CA") == ["fr_CA", "fr"])
    }

    @Test func aZoneIsANameNeverAPath() {
        #expect(WebReaders.zoneName("Europe/Paris") == "Europe/Paris")
        #expect(WebReaders.zoneName("America/Argentina/Buenos_Aires") != nil)
        for bad in ["../../etc/passwd", "/etc/localtime", "Europe/Paris\n", "", String(repeating: "A", count: 65), "a b"] {
            #expect(WebReaders.zoneName(bad) == nil, "\(bad)")
        }
    }

    @Test func textFromTheBoardIsNeverMarkup() {
        #expect(HTML.text("<b a=\"1\" b='2'>&</b>") == "&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;&lt;/b&gt;")
        #expect(
            JSONText.object([("m", "a\"b\\c\n</script>\u{2028}\u{1}")])
                == "{\"m\":\"a\\\"b\\\\c\\n\\u003c/script>\\u2028\\u0001\"}")
    }
}

@Suite struct WebReaderTests {
    @Test func englishFirstMeansEnglishWhateverFollows() {
        #expect(WebReaders.chain(["en-US", "fr"]).candidates.isEmpty)
        #expect(WebReaders.chain(["fr-CA", "ko", "en", "de"]).candidates == ["fr_CA", "fr", "ko"])
        #expect(WebReaders.chain(["ko-KR", "ko"]).candidates == ["ko_KR", "ko"])
    }
}

@Suite struct GzipTests {
    @Test func theBrowsersWordDecides() {
        #expect(Gzip.accepted("gzip, deflate, br"))
        #expect(Gzip.accepted("br;q=1.0, gzip;q=0.8"))
        #expect(!Gzip.accepted("gzip;q=0, identity"))
        #expect(!Gzip.accepted("identity"))
        #expect(!Gzip.accepted(nil))
        #expect(!Gzip.accepted("x-gzip-not"))
    }

    @Test func aPageShrinksAndStaysGzip() throws {
        let page = Array(String(repeating: "<li class=\"card\">보고서 쓰기</li>\n", count: 2000).utf8)
        let packed = try #require(Gzip.compress(page))
        #expect(packed.prefix(2) == [0x1F, 0x8B], "a gzip member")
        #expect(packed.count * 20 < page.count)
    }
}

@Suite struct LocaleShapeTests {
    /// ICU 72 crashes in its date pattern generator on a 12-letter language
    /// (a browser's Accept-Language, LANG): only a locale's shape reaches it.
    @Test func onlyALocalesShapeReachesICU() {
        for good in ["fr", "ko_KR", "en_US_POSIX", "sr_Latn_RS", "es_419", "zh_Hans_CN", "en_XA", "fil_PH"] {
            #expect(ICULocaleID.normalized(good) == good, "\(good)")
        }
        for bad in ["abcdefghijkl", "xxxxxxxxxxxx_US", "x", "en_USA_1", "12_US", "en_U", "ko_KR_x"] {
            #expect(ICULocaleID.normalized(bad) == nil, "\(bad)")
        }
    }
}
