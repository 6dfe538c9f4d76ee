/// The bounds of the analyst list's pages: larger than a rider's, as analysts read in bulk.
public enum AnalystPageBounds: PageLimitBounds {
    public static var range: ClosedRange<Int> { 1...1000 }
    public static var defaultValue: Int { 100 }
}

/// How many trips one page of the analyst list holds.
public typealias AnalystPageLimit = BoundedPageLimit<AnalystPageBounds>
