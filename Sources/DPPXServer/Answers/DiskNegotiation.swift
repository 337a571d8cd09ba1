import DPPXCore

/// What the server sends for an image's URL: the variant `VariantNegotiator` chooses when its
/// file is on disk, else the URL's own file (`variantMissing`, as while a build rewrites OUT).
/// The responder and the inspector both ask here, so the inspector reports what is sent.
enum DiskNegotiation {
    static func negotiate(_ image: Manifest.Image, hints: ClientHints, files: RootedFileSystem) -> (negotiation: Negotiation, file: FileIdentity?) {
        let negotiation = VariantNegotiator.negotiate(image, hints: hints)
        guard let choice = negotiation.choice else { return (negotiation, nil) }
        guard let file = files.entry(choice.variant.path), file.isRegularFile else {
            return (.ownFile(.variantMissing(choice)), nil)
        }
        return (negotiation, file)
    }
}
