//! What the movement step reads of the world: the collision meshes and the climbable areas.
use crate::collision::{Aabb, ColliderId, CollisionMesh, CollisionWorld};

/// Collider id of the standing mesh in the world built by the simulation.
pub const STAND: ColliderId = ColliderId(0);
/// Collider id of the crouching mesh.
pub const CROUCH: ColliderId = ColliderId(1);

/// The colliders one kind of character moves with: a standing one and, for a character that can
/// crouch, a crouching one with the same feet point. Each collider has its own mesh in the
/// collision world (seed 004: "if an enemy has a different sized collider, then it should use a
/// different mesh"); characters of one class share them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SizeClass {
    /// The collider used standing.
    pub stand: ColliderId,
    /// The collider used crouching, if the character can crouch.
    pub crouch: Option<ColliderId>,
}

/// The hero's size class: [`STAND`] and [`CROUCH`].
pub const HERO_CLASS: SizeClass = SizeClass {
    stand: STAND,
    crouch: Some(CROUCH),
};

/// The static surroundings of a movement step.
#[derive(Clone, Copy)]
pub struct Env<'a> {
    /// Meshes: [`STAND`] and [`CROUCH`] at least.
    pub collision: &'a CollisionWorld,
    /// Climbable rectangles (ladders); the hero's feet must be inside to grab one.
    pub ladders: &'a [Aabb],
}

impl<'a> Env<'a> {
    /// The mesh of a collider.
    pub fn mesh(&self, id: ColliderId) -> &'a CollisionMesh {
        self.collision.mesh(id)
    }
}
