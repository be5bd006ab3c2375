//! What the movement step reads of the world: the collision meshes and the climbable areas.
use crate::collision::{Aabb, ColliderId, CollisionMesh, CollisionWorld};

/// Collider id of the standing mesh in the world built by the simulation.
pub const STAND: ColliderId = ColliderId(0);
/// Collider id of the crouching mesh.
pub const CROUCH: ColliderId = ColliderId(1);

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
