/// The version of dppx: `dppx --version` prints it, and partial manifests record it, since
/// shards built by different versions may write different bytes and must not be merged.
public enum DPPXVersion {
    public static let current = "0.1.0"
}
