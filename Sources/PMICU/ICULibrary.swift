internal import CICU

/// The system's ICU, loaded at run time by the first call that needs it
/// (pm links none): any version the system has, or none at all, when pm
/// works in an invariant mode (ISO dates, simple plural rules, sorting by
/// code point).
public enum ICULibrary {
    /// Whether ICU is loaded, loading it if nothing has asked yet.
    public static var isAvailable: Bool { pm_icu_available() == 1 }

    /// Whether a call needed ICU and the system has none (not when
    /// `PM_ICU_VERSION=none` asked for the invariant mode): then pm says
    /// once how to get full language support.
    public static var wasNeededAndMissing: Bool { pm_icu_state() == 0 }

    /// Whether anything has loaded ICU (or looked for it) so far.
    public static var wasLookedFor: Bool { pm_icu_state() >= 0 }

    /// The major version loaded (`72`); nil when none is.
    public static var version: Int? {
        let version = pm_icu_version()
        return version > 0 ? Int(version) : nil
    }
}
