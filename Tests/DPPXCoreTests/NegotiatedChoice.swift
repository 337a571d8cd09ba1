import DPPXCore

/// What `VariantNegotiator` chooses for `image` with these hints already read; nil when it
/// answers with the image's own file. The rule tests reach `VariantChoice` through it, as the
/// server and the inspector do.
func negotiatedChoice(image: Manifest.Image, dpr: ClientDPR, accept: AcceptHeader, width: ClientWidth? = nil) -> VariantChoice? {
    VariantNegotiator.negotiate(image, hints: ClientHints(dpr: dpr, accept: accept, width: width)).choice
}
